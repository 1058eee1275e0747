import '../../../shared/i18n/manageTexts'; // this screen's English texts (not in the feed's bundle)
import { Alert, Badge, Button, Card, Group, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconRosetteDiscountCheck } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';

import { runAppAction } from '../../../shared/actions/appActions';
import { useSession } from '../../../shared/auth/session';
import { isLive, subscriptionsQueryOptions } from '../../../shared/billing/billingApi';
import { billingQueryKeys } from '../../../shared/billing/billingQueryKeys';
import { formatBillingDate } from '../../../shared/billing/formatDate';
import { statusKey } from '../../../shared/billing/subscriptionStatus';
import { paths } from '../../../shared/routing/paths';
import { PageShell } from '../../../shared/ui/PageShell';

/**
 * After payment or when a trial starts (spec §2 `/billing/success`): the plan the user now has, and
 * the creator setup. Stripe returns here with `redirect_status` after a payment form; a failed one says so.
 */
export function BillingSuccessPage() {
  const { t, i18n } = useTranslation();
  const session = useSession();
  const queryClient = useQueryClient();
  const [search] = useSearchParams();
  const failed = search.get('redirect_status') === 'failed';
  const subscriptions = useQuery({ ...subscriptionsQueryOptions(), enabled: session.signedIn });
  const current = subscriptions.data?.find(isLive) ?? null;

  // A payment just confirmed reaches the server through Stripe's webhook: read the status again shortly.
  useEffect(() => {
    if (current?.status !== 'incomplete') return undefined;
    const timer = window.setTimeout(() => void queryClient.invalidateQueries({ queryKey: billingQueryKeys.subscriptions }), 3000);
    return () => window.clearTimeout(timer);
  }, [current, queryClient]);

  return (
    <PageShell
      icon={<IconRosetteDiscountCheck size={28} />}
      title={t('billing.success.title')}
      description={t('billing.success.description')}
      loading={session.signedIn && subscriptions.isPending}
      error={subscriptions.error}
      onRetry={() => void subscriptions.refetch()}
    >
      <Stack gap="lg">
        {failed && (
          <Alert color="red" variant="light" radius="lg" icon={<IconAlertTriangle size={20} />} title={t('billing.success.failedTitle')}>
            {t('billing.success.failed')}
          </Alert>
        )}
        {session.signedIn && (
          <Card withBorder radius="lg" padding="lg" data-testid="success-plan">
            {current ? (
              <Group justify="space-between" wrap="wrap" gap="sm">
                <Stack gap={2}>
                  <Text size="sm" c="dimmed">
                    {t('billing.success.current')}
                  </Text>
                  <Text fw={700} size="lg">
                    {current.plan_name}
                  </Text>
                  {current.end_time && (
                    <Text size="sm" c="dimmed">
                      {t('billing.success.until', { date: formatBillingDate(current.end_time, i18n.language) })}
                    </Text>
                  )}
                </Stack>
                <Badge size="lg" radius="sm" variant="light" color={current.status === 'incomplete' ? 'orange' : 'teal'} data-testid="success-status">
                  {t(statusKey(current))}
                </Badge>
              </Group>
            ) : (
              <Text c="dimmed">{t('billing.success.none')}</Text>
            )}
          </Card>
        )}
        <Group gap="sm">
          {session.role !== 'creator' && current && (
            <Button radius="xl" onClick={() => runAppAction('profile')} data-testid="success-setup">
              {t('billing.success.setup')}
            </Button>
          )}
          <Button component={Link} to={paths.feed} variant="default" radius="xl">
            {t('billing.success.home')}
          </Button>
          <Button component={Link} to={paths.billingPlans} variant="subtle" radius="xl">
            {t('billing.success.plans')}
          </Button>
        </Group>
      </Stack>
    </PageShell>
  );
}
