import '../../../shared/i18n/adminTexts'; // this screen's English texts (not in the feed's bundle)
import { Alert, Button, Group, List, Modal, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

import { errorMessage } from '../../../shared/api/apiError';
import { type AdminUser, useSetAccountActive } from '../api/usersAdminApi';
import { cascadeSteps, type CascadeStep } from '../model/cascade';
import { displayName } from './displayName';

/**
 * The confirmation before an account is drafted or reactivated: it spells out the spec §4 cascade
 * (what is drafted, or what comes back and what waits in drafts) for this very account.
 */
export function ActiveDialog({ user, onClose }: { user: AdminUser; onClose: () => void }) {
  const { t } = useTranslation();
  const activate = !user.is_active;
  const name = displayName(user);
  const mutation = useSetAccountActive();
  const mode = activate ? 'activate' : 'deactivate';
  const text = (step: CascadeStep): string => {
    switch (step.key) {
      case 'account':
      case 'creator':
      case 'hosts':
        return t(`usersAdmin.cascade.${mode}.${step.key}`);
      case 'signedOut':
        return t('usersAdmin.cascade.deactivate.signedOut');
      case 'tours':
        return t('usersAdmin.cascade.deactivate.tours', { count: step.count });
      case 'toursToDrafts':
        return t('usersAdmin.cascade.activate.toursToDrafts', { count: step.count });
    }
  };
  const steps = cascadeSteps(user, activate);
  const confirm = () =>
    mutation.mutate(
      { userid: user.userid, active: activate },
      {
        onSuccess: () => {
          notifications.show({ color: 'teal', message: t(activate ? 'usersAdmin.cascade.activated' : 'usersAdmin.cascade.deactivated', { name }) });
          onClose();
        },
      },
    );
  return (
    <Modal
      opened
      onClose={onClose}
      title={t(activate ? 'usersAdmin.cascade.activateTitle' : 'usersAdmin.cascade.deactivateTitle', { name })}
      centered
      radius="lg"
      attributes={{ content: { 'data-testid': 'active-dialog' } }}
    >
      <Stack gap="md">
        <Text size="sm">{t(activate ? 'usersAdmin.cascade.activateIntro' : 'usersAdmin.cascade.deactivateIntro')}</Text>
        <List size="sm" spacing={6} data-testid="cascade-steps">
          {steps.map((step) => (
            <List.Item key={step.key} data-step={step.key}>
              {text(step)}
            </List.Item>
          ))}
        </List>
        {mutation.isError && (
          <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} title={t('usersAdmin.cascade.failed')} data-testid="active-error">
            {errorMessage(mutation.error, t('page.errorText'))}
          </Alert>
        )}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button color={activate ? 'teal' : 'red'} onClick={confirm} loading={mutation.isPending} data-testid="active-confirm">
            {t(activate ? 'usersAdmin.cascade.confirmActivate' : 'usersAdmin.cascade.confirmDeactivate')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
