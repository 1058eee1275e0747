import '../../../shared/i18n/manageTexts'; // this screen's English texts (not in the feed's bundle)
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { IconHourglassEmpty } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

import type { TrialSubscriptions } from '../../../shared/api/generated/types.gen';
import { dismissTrialDialog } from '../../../shared/billing/billingApi';
import { billingQueryKeys } from '../../../shared/billing/billingQueryKeys';
import { CancelPlanDialog } from '../../../shared/billing/CancelPlanDialog';
import { formatBillingDate } from '../../../shared/billing/formatDate';
import { useIsMobile } from '../../../shared/layout/breakpoints';
import { paths } from '../../../shared/routing/paths';

interface TrialEndDialogProps {
  opened: boolean;
  trials: TrialSubscriptions;
  onClosed: () => void;
}

/** The end-of-trial dialog (spec §2, §4, §9): subscribe, cancel the plan, or (3 times) close it. */
export function TrialEndDialog({ opened, trials, onClosed }: TrialEndDialogProps) {
  const { t, i18n } = useTranslation();
  const mobile = useIsMobile();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [cancelling, setCancelling] = useState(false);
  const ended = trials.ended_subscription;
  const closable = trials.closable;

  const close = async () => {
    if (!closable) return;
    onClosed();
    await dismissTrialDialog();
    await queryClient.invalidateQueries({ queryKey: billingQueryKeys.trials });
  };

  const subscribe = async () => {
    onClosed();
    await navigate(paths.billingPlans);
  };

  return (
    <>
      <Modal
        opened={opened && !cancelling}
        onClose={() => void close()}
        withCloseButton={closable}
        closeOnClickOutside={closable}
        closeOnEscape={closable}
        title={t('billing.trialEnd.title')}
        centered
        radius="lg"
        fullScreen={mobile}
        zIndex={250}
        data-testid="trial-end-dialog"
      >
        <Stack gap="md">
          <Group gap="sm" wrap="nowrap" align="flex-start">
            <IconHourglassEmpty size={28} aria-hidden="true" style={{ flexShrink: 0 }} />
            <Text size="sm">
              {t('billing.trialEnd.text', { plan: ended?.plan_name ?? '', date: formatBillingDate(ended?.end_time, i18n.language) })}
            </Text>
          </Group>
          {!closable && (
            <Text size="sm" fw={600} data-testid="trial-end-last">
              {t('billing.trialEnd.lastChance')}
            </Text>
          )}
          <Group justify="flex-end" gap="xs">
            {closable && (
              <Button variant="subtle" radius="xl" onClick={() => void close()} data-testid="trial-end-close">
                {t('billing.trialEnd.close')}
              </Button>
            )}
            <Button variant="default" color="red" radius="xl" onClick={() => setCancelling(true)} data-testid="trial-end-cancel">
              {t('billing.trialEnd.cancel')}
            </Button>
            <Button radius="xl" onClick={() => void subscribe()} data-autofocus data-testid="trial-end-subscribe">
              {t('billing.trialEnd.subscribe')}
            </Button>
          </Group>
        </Stack>
      </Modal>
      <CancelPlanDialog planName={cancelling && ended ? ended.plan_name : null} onClose={() => setCancelling(false)} />
    </>
  );
}
