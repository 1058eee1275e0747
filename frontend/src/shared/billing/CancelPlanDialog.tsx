import '../i18n/manageTexts'; // this screen's English texts (not in the feed's bundle)
import { Alert, Button, Group, List, Modal, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { useIsMobile } from '../layout/breakpoints';
import { cancelSubscription } from './billingApi';
import { showBillingFailure } from './billingErrors';

interface CancelPlanDialogProps {
  planName: string | null;
  onClose: () => void;
  onCancelled?: () => void;
}

/**
 * The cancel-plan warning (spec §2, §4): cancelling a paid plan deletes the creator profile, the
 * custom hosts and the media on them. Confirming cancels at once; every billing query is refreshed.
 */
export function CancelPlanDialog({ planName, onClose, onCancelled }: CancelPlanDialogProps) {
  const { t } = useTranslation();
  const mobile = useIsMobile();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);

  const confirm = async () => {
    if (planName === null) return;
    setBusy(true);
    const outcome = await cancelSubscription(planName);
    setBusy(false);
    if (!outcome.ok) {
      showBillingFailure(outcome.failure, t);
      return;
    }
    // The creator profile and hosts may be gone: every cached page of the user is read again.
    await queryClient.invalidateQueries();
    onClose();
    onCancelled?.();
  };

  return (
    <Modal
      opened={planName !== null}
      onClose={onClose}
      title={t('billing.cancel.title')}
      centered
      radius="lg"
      fullScreen={mobile}
      zIndex={300}
      data-testid="cancel-plan-dialog"
    >
      <Stack gap="md">
        <Alert color="red" variant="light" radius="md" icon={<IconAlertTriangle size={20} />} title={t('billing.cancel.warningTitle', { plan: planName ?? '' })}>
          <Text size="sm">{t('billing.cancel.warning')}</Text>
          <List size="sm" mt="xs">
            <List.Item>{t('billing.cancel.profile')}</List.Item>
            <List.Item>{t('billing.cancel.hosts')}</List.Item>
            <List.Item>{t('billing.cancel.media')}</List.Item>
          </List>
        </Alert>
        <Group justify="flex-end" gap="xs">
          <Button variant="default" radius="xl" onClick={onClose} data-autofocus>
            {t('billing.cancel.keep')}
          </Button>
          <Button color="red" radius="xl" loading={busy} onClick={() => void confirm()} data-testid="cancel-plan-confirm">
            {t('billing.cancel.confirm')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
