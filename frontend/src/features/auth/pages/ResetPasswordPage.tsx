import { Anchor, Text } from '@mantine/core';
import { IconKey } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { paths } from '../../../shared/routing/paths';
import { PageShell } from '../../../shared/ui/PageShell';

/** The reset-password page (spec §2 `/resetpassword`, route name resetPasswordSend). */
export function ResetPasswordPage() {
  const { t } = useTranslation();
  return (
    <PageShell icon={<IconKey size={28} />} title={t('resetPassword.title')} description={t('resetPassword.description')} size="sm">
      <Text size="sm" c="dimmed">
        {t('resetPassword.remembered')}{' '}
        <Anchor component={Link} to={paths.registration}>
          {t('resetPassword.signIn')}
        </Anchor>
      </Text>
    </PageShell>
  );
}
