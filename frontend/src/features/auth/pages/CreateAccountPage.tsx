import { Anchor, Stack, Text } from '@mantine/core';
import { IconUserPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { paths } from '../../../shared/routing/paths';
import { PageShell } from '../../../shared/ui/PageShell';
import { SignUpForm } from '../components/SignUpForm';
import { SocialButtons } from '../components/SocialButtons';

/** The account creation page (spec §2 `/create_account`). */
export function CreateAccountPage() {
  const { t } = useTranslation();
  return (
    <PageShell icon={<IconUserPlus size={28} />} title={t('createAccount.title')} description={t('createAccount.description')} size="sm">
      <Stack gap="lg">
        <SignUpForm />
        <SocialButtons />
      </Stack>
      <Text size="sm" c="dimmed">
        {t('createAccount.haveAccount')}{' '}
        <Anchor component={Link} to={paths.registration}>
          {t('createAccount.signIn')}
        </Anchor>
      </Text>
    </PageShell>
  );
}
