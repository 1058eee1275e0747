import { Anchor, Text } from '@mantine/core';
import { IconUserPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { paths } from '../../../shared/routing/paths';
import { PageShell } from '../../../shared/ui/PageShell';

/** The account creation page (spec §2 `/create_account`). */
export function CreateAccountPage() {
  const { t } = useTranslation();
  return (
    <PageShell icon={<IconUserPlus size={28} />} title={t('createAccount.title')} description={t('createAccount.description')} size="sm">
      <Text size="sm" c="dimmed">
        {t('createAccount.haveAccount')}{' '}
        <Anchor component={Link} to={paths.registration}>
          {t('createAccount.signIn')}
        </Anchor>
      </Text>
    </PageShell>
  );
}
