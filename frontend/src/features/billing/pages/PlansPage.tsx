import '../../../shared/i18n/manageTexts'; // this screen's English texts (not in the feed's bundle)
import { Alert, Badge, Button, Card, List, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCheck, IconClock, IconCreditCard, IconInfoCircle } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

import type { CreatedSubscriptionOut, PlanOut } from '../../../shared/api/generated/types.gen';
import { openLoginDialog } from '../../../shared/auth/loginDialog';
import { useSession } from '../../../shared/auth/session';
import {
  billingConfigQueryOptions,
  createSubscription,
  newAttemptKey,
  plansQueryOptions,
  subscriptionsQueryOptions,
  trialsQueryOptions,
} from '../../../shared/billing/billingApi';
import { billingQueryKeys } from '../../../shared/billing/billingQueryKeys';
import { showBillingFailure } from '../../../shared/billing/billingErrors';
import { paths } from '../../../shared/routing/paths';
import { PageShell } from '../../../shared/ui/PageShell';
import { PartLoading } from '../../../shared/ui/PartLoading';
import { livePlanIds, planAction, planPrice, type PlanAction } from '../model/planDisplay';
import classes from './PlansPage.module.css';

// Stripe Elements (and Stripe's script) come only when a payment form opens.
const PaymentDialog = lazy(async () => ({ default: (await import('../components/PaymentDialog')).PaymentDialog }));

/** Creator plans (spec §2 `/billing/plans`, §4 billing flow, §9 plan display). */
export function PlansPage() {
  const { t } = useTranslation();
  const session = useSession();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const plans = useQuery(plansQueryOptions());
  const config = useQuery(billingConfigQueryOptions());
  const subscriptions = useQuery({ ...subscriptionsQueryOptions(), enabled: session.signedIn });
  const trials = useQuery({ ...trialsQueryOptions(), enabled: session.signedIn });
  const [busyPlan, setBusyPlan] = useState<number | null>(null);
  const [payment, setPayment] = useState<CreatedSubscriptionOut | null>(null);
  // One Idempotency-Key per plan and attempt: a double click or a retry never subscribes twice.
  const attempts = useRef(new Map<number, string>());

  const context = {
    livePlanIds: livePlanIds(subscriptions.data ?? []),
    trialAvailable: (trials.data?.count ?? 0) === 0,
  };
  const paymentsOn = config.data?.payments_enabled ?? false;

  const choose = async (plan: PlanOut, action: PlanAction) => {
    if (action.kind === 'comingSoon') return;
    if (action.kind === 'subscribed' && plan.is_free) {
      // The free plan closes the page and moves on (spec §4); a user with no plan yet has it recorded.
      if (session.signedIn && context.livePlanIds.size === 0) {
        const outcome = await createSubscription(plan.plan_name, false, newAttemptKey());
        if (!outcome.ok) {
          showBillingFailure(outcome.failure, t);
          return;
        }
        await queryClient.invalidateQueries({ queryKey: billingQueryKeys.all });
      }
      await navigate(paths.feed);
      return;
    }
    if (!session.signedIn) {
      openLoginDialog();
      return;
    }
    if (action.kind === 'subscribed') return;
    const attempt = attempts.current.get(plan.id) ?? newAttemptKey();
    attempts.current.set(plan.id, attempt);
    setBusyPlan(plan.id);
    const outcome = await createSubscription(plan.plan_name, action.kind === 'trial', attempt);
    setBusyPlan(null);
    if (!outcome.ok) {
      attempts.current.delete(plan.id);
      showBillingFailure(outcome.failure, t);
      return;
    }
    attempts.current.delete(plan.id);
    await queryClient.invalidateQueries({ queryKey: billingQueryKeys.all });
    const subscription = outcome.subscription;
    if (subscription.status === 'error') {
      showBillingFailure({ kind: 'message', message: t('billing.errors.statusError') }, t);
      return;
    }
    if (subscription.status === 'incomplete' && subscription.client_secret && subscription.intent_type === 'payment') {
      setPayment(subscription);
      return;
    }
    // A trial (or a plan already paid): straight to the creator setup (spec §4).
    await navigate(paths.billingSuccess);
  };

  const loading = plans.isPending || config.isPending || (session.signedIn && (subscriptions.isPending || trials.isPending));
  const error = plans.error ?? config.error ?? subscriptions.error ?? trials.error;

  return (
    <PageShell
      icon={<IconCreditCard size={28} />}
      title={t('billing.plans.title')}
      description={t('billing.plans.description')}
      loading={loading}
      error={error}
      onRetry={() => void queryClient.invalidateQueries({ queryKey: billingQueryKeys.all })}
      size="lg"
    >
      <Stack gap="lg">
        {!paymentsOn && (
          <Alert color="blue" variant="light" radius="lg" icon={<IconInfoCircle size={20} />} title={t('billing.plans.paymentsOffTitle')} data-testid="payments-off">
            {t('billing.plans.paymentsOff')}
          </Alert>
        )}
        {plans.data?.length === 0 ? (
          <Text c="dimmed" data-testid="plans-empty">
            {t('billing.plans.empty')}
          </Text>
        ) : (
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="lg" data-testid="plans">
            {plans.data?.map((plan) => (
              <PlanCard
                key={plan.id}
                plan={plan}
                action={planAction(plan, context)}
                paymentsOn={paymentsOn}
                busy={busyPlan === plan.id}
                onChoose={(action) => void choose(plan, action)}
              />
            ))}
          </SimpleGrid>
        )}
      </Stack>
      {payment && (
        <Suspense fallback={<PartLoading />}>
          <PaymentDialog subscription={payment} publishableKey={config.data?.publishable_key ?? ''} onClose={() => setPayment(null)} />
        </Suspense>
      )}
    </PageShell>
  );
}

interface PlanCardProps {
  plan: PlanOut;
  action: PlanAction;
  paymentsOn: boolean;
  busy: boolean;
  onChoose: (action: PlanAction) => void;
}

function PlanCard({ plan, action, paymentsOn, busy, onChoose }: PlanCardProps) {
  const { t } = useTranslation();
  const price = planPrice(plan);
  const label = {
    subscribed: t('billing.plans.subscribed'),
    trial: t('billing.plans.startTrial', { count: action.kind === 'trial' ? action.days : 0 }),
    subscribe: t('billing.plans.subscribe'),
    comingSoon: t('billing.plans.comingSoon'),
  }[action.kind];
  const disabled = action.kind === 'comingSoon' || (action.kind === 'subscribe' && !paymentsOn) || (action.kind === 'subscribed' && !plan.is_free);
  return (
    <Card withBorder radius="lg" padding="lg" className={classes.card} data-testid="plan-card" data-plan={plan.plan_name}>
      <Stack gap="sm" h="100%">
        <Title order={2} size="h3">
          {plan.plan_name}
        </Title>
        <div>
          {price.kind === 'free' ? (
            <Text fw={700} fz={28} data-testid="plan-price">
              {t('billing.plans.free')}
            </Text>
          ) : (
            <>
              <Text fw={700} fz={28} data-testid="plan-price">
                {price.was && (
                  <Text span td="line-through" c="dimmed" fz="lg" mr={8}>
                    ${price.was}
                  </Text>
                )}
                {t('billing.plans.price', { amount: price.amount, interval: t(`billing.interval.${price.interval}`) })}
              </Text>
              {price.was && (
                <Badge color="orange" variant="light" c="dark.8" radius="sm" data-testid="plan-discount">
                  {t('billing.plans.limitedTime')}
                </Badge>
              )}
            </>
          )}
        </div>
        {plan.description && (
          <Text size="sm" c="dimmed">
            {plan.description}
          </Text>
        )}
        <List spacing={6} size="sm" className={classes.features}>
          {plan.features.map((feature) => (
            <List.Item
              key={feature.name}
              icon={
                <ThemeIcon size={20} radius="xl" variant="light" color={feature.coming_soon ? 'gray' : 'teal'}>
                  {feature.coming_soon ? <IconClock size={12} aria-hidden="true" /> : <IconCheck size={12} aria-hidden="true" />}
                </ThemeIcon>
              }
            >
              {feature.name}
              {feature.coming_soon && (
                <Text span size="xs" c="dimmed" ml={6}>
                  ({t('billing.plans.featureSoon')})
                </Text>
              )}
            </List.Item>
          ))}
        </List>
        <Button
          mt="auto"
          radius="xl"
          fullWidth
          variant={action.kind === 'trial' || action.kind === 'subscribe' ? 'filled' : 'default'}
          disabled={disabled}
          loading={busy}
          onClick={() => onChoose(action)}
          data-testid="plan-action"
        >
          {label}
        </Button>
      </Stack>
    </Card>
  );
}
