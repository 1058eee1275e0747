import '../../../shared/i18n/manageTexts'; // this screen's English texts (not in the feed's bundle)
import { Anchor, Badge, Button, Card, Group, Stack, Text } from '@mantine/core';
import { IconExternalLink } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import type { SubscriptionOut } from '../../../shared/api/generated/types.gen';
import { billingConfigQueryOptions, isLive, subscriptionsQueryOptions } from '../../../shared/billing/billingApi';
import { CancelPlanDialog } from '../../../shared/billing/CancelPlanDialog';
import { formatBillingDate } from '../../../shared/billing/formatDate';
import { statusKey } from '../../../shared/billing/subscriptionStatus';
import { paths } from '../../../shared/routing/paths';
import { closeSettingsDialog } from '../../../shared/settings/settingsDialog';
import { TabLoading } from './SettingsStates';

/** Billing subscriptions (spec §2): the user's plans with their status, payment methods, cancelling. */
export function BillingTab() {
  const { t } = useTranslation();
  const subscriptions = useQuery(subscriptionsQueryOptions());
  const config = useQuery(billingConfigQueryOptions());
  const [cancelling, setCancelling] = useState<string | null>(null);

  if (subscriptions.isPending || subscriptions.error) {
    return <TabLoading error={subscriptions.error} onRetry={() => void subscriptions.refetch()} />;
  }
  const manageUrl = config.data?.manage_payments_url ?? '';
  return (
    <Stack gap="md" data-testid="billing-tab">
      {subscriptions.data.length === 0 ? (
        <Text c="dimmed" size="sm" data-testid="billing-empty">
          {t('billing.subscriptions.empty')}
        </Text>
      ) : (
        subscriptions.data.map((row) => <SubscriptionRow key={row.id} row={row} onCancel={() => setCancelling(row.plan_name)} />)
      )}
      <Group gap="sm">
        <Button component={Link} to={paths.billingPlans} onClick={closeSettingsDialog} variant="default" radius="xl" size="sm">
          {t('billing.subscriptions.plans')}
        </Button>
        {manageUrl && (
          <Anchor href={manageUrl} target="_blank" rel="noreferrer" size="sm">
            <Group gap={4} wrap="nowrap">
              {t('billing.subscriptions.managePayments')}
              <IconExternalLink size={14} aria-hidden="true" />
            </Group>
          </Anchor>
        )}
      </Group>
      <CancelPlanDialog planName={cancelling} onClose={() => setCancelling(null)} />
    </Stack>
  );
}

function SubscriptionRow({ row, onCancel }: { row: SubscriptionOut; onCancel: () => void }) {
  const { t, i18n } = useTranslation();
  const live = isLive(row);
  const date = formatBillingDate(row.status === 'ended' ? (row.cancelled_at ?? row.end_time) : (row.next_period_start_time ?? row.end_time), i18n.language);
  const when = !date
    ? ''
    : row.status === 'ended'
      ? t('billing.subscriptions.ended', { date })
      : row.next_period_start_time
        ? t('billing.subscriptions.renews', { date })
        : t('billing.subscriptions.ends', { date });
  const canCancel = row.cancelled_at === null && (live || (row.is_trial && row.status === 'ended'));
  return (
    <Card withBorder radius="md" padding="md" data-testid="billing-subscription">
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Stack gap={2}>
          <Group gap="xs">
            <Text fw={600}>{row.plan_name}</Text>
            <Badge variant="light" radius="sm" color={live ? (row.status === 'incomplete' ? 'orange' : 'teal') : 'gray'} data-testid="billing-status">
              {t(statusKey(row))}
            </Badge>
          </Group>
          {when && (
            <Text size="xs" c="dimmed">
              {when}
            </Text>
          )}
        </Stack>
        {canCancel && !row.plan.is_free && (
          <Button variant="subtle" color="red" size="xs" radius="xl" onClick={onCancel} data-testid="billing-cancel">
            {t('billing.subscriptions.cancel')}
          </Button>
        )}
      </Group>
    </Card>
  );
}
