import { Alert, List, ThemeIcon } from '@mantine/core';
import { IconBookmark, IconLock, IconUserPlus, IconUsers, IconView360 } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import { PageShell } from '../../../shared/ui/PageShell';
import { platformConfigQueryOptions } from '../../../shared/platform/platformConfig';

/** The combined sign-in and sign-up page (spec §2 `/registration`). */
export function RegistrationPage() {
  const { t } = useTranslation();
  const config = useQuery(platformConfigQueryOptions());
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
