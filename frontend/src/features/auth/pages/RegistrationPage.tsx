import { Alert, List, Tabs, ThemeIcon } from '@mantine/core';
import { IconBookmark, IconLock, IconUserPlus, IconUsers, IconView360 } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';

import { PageShell } from '../../../shared/ui/PageShell';
import { platformConfigQueryOptions } from '../../../shared/platform/platformConfig';
import { SignInForm } from '../components/SignInForm';
import { SignUpForm } from '../components/SignUpForm';
import { SocialButtons } from '../components/SocialButtons';

/** The combined sign-in and sign-up page (spec §2 `/registration`). */
export function RegistrationPage() {
  const { t } = useTranslation();
  const config = useQuery(platformConfigQueryOptions());
  const [searchParams, setSearchParams] = useSearchParams();
  const tab = searchParams.get('tab') === 'signup' ? 'signup' : 'signin';
  return (
    <PageShell
      icon={<IconUserPlus size={28} />}
      title={t('registration.title')}
      description={t('registration.description')}
      loading={config.isPending}
      error={config.error}
      onRetry={() => void config.refetch()}
      size="sm"
    >
      {config.data?.restrict_access && (
        <Alert color="brand" radius="lg" variant="light" icon={<IconLock size={18} />} data-testid="restricted-notice">
          {t('registration.restricted')}
        </Alert>
      )}
      <Tabs value={tab} onChange={(next) => setSearchParams(next === 'signup' ? { tab: 'signup' } : {}, { replace: true })}>
        <Tabs.List grow mb="md">
          <Tabs.Tab value="signin">{t('auth.signIn')}</Tabs.Tab>
          <Tabs.Tab value="signup">{t('auth.signUp')}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="signin">
          <SignInForm />
        </Tabs.Panel>
        <Tabs.Panel value="signup">
          <SignUpForm />
        </Tabs.Panel>
      </Tabs>
      <SocialButtons />
      <List spacing="sm" center lh={1.45}>
        <Benefit icon={<IconView360 size={16} />} text={t('registration.benefits.explore')} />
        <Benefit icon={<IconBookmark size={16} />} text={t('registration.benefits.save')} />
        <Benefit icon={<IconUsers size={16} />} text={t('registration.benefits.follow')} />
      </List>
    </PageShell>
  );
}

function Benefit({ icon, text }: { icon: ReactNode; text: string }) {
  return (
    <List.Item
      icon={
        <ThemeIcon radius="xl" size={28} variant="light">
          {icon}
        </ThemeIcon>
      }
    >
      {text}
    </List.Item>
  );
}
