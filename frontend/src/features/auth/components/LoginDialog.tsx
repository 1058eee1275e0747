import { Button, Modal, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

import { closeLoginDialog, useLoginDialogOpen } from '../../../shared/auth/loginDialog';
import { paths } from '../../../shared/routing/paths';
import { LogoMark } from '../../../shared/ui/Logo';

/** The login dialog: what signed-out visitors see when they try something that needs an account. */
export function LoginDialog() {
  const { t } = useTranslation();
  const opened = useLoginDialogOpen();
  const navigate = useNavigate();
  const goTo = (path: string) => {
    closeLoginDialog();
    void navigate(path);
  };

  return (
    <Modal opened={opened} onClose={closeLoginDialog} centered radius="lg" padding="xl" size="sm" withCloseButton={false} data-testid="login-dialog">
      <Stack align="center" ta="center" gap="md">
        <LogoMark size={48} />
        <Title order={2} size="h3">
          {t('login.title')}
        </Title>
        <Text c="dimmed">{t('login.text')}</Text>
        <Stack gap="xs" w="100%">
          <Button size="md" radius="xl" onClick={() => goTo(paths.registration)}>
            {t('login.signIn')}
          </Button>
          <Button size="md" radius="xl" variant="default" onClick={() => goTo(paths.createAccount)}>
            {t('login.createAccount')}
          </Button>
          <Button size="sm" variant="subtle" color="gray" onClick={closeLoginDialog}>
            {t('login.notNow')}
          </Button>
        </Stack>
      </Stack>
    </Modal>
  );
}
