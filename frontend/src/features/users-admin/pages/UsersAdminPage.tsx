import '../../../shared/i18n/adminTexts'; // this screen's English texts (not in the feed's bundle)
import { Anchor, Group } from '@mantine/core';
import { IconArrowLeft, IconUsers } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { paths } from '../../../shared/routing/paths';
import { TabbedPage } from '../../../shared/ui/TabbedPage';
import { ApiUsageTab } from '../components/ApiUsageTab';
import { BetaTestersTab } from '../components/BetaTestersTab';
import { PlatformTab } from '../components/PlatformTab';
import { RanksTab } from '../components/RanksTab';
import { UsersTab } from '../components/UsersTab';

const TABS = ['users', 'beta', 'usage', 'platform', 'ranks'] as const;

/** Spec §2 "user moderation", "tour transfer", beta testers, platform state and ranks: the admins' page. */
export function UsersAdminPage() {
  const { t } = useTranslation();
  return (
    <TabbedPage
      testId="users-admin-page"
      adminsOnly={{ text: t('usersAdmin.adminsOnly'), testId: 'users-admin-denied' }}
      icon={IconUsers}
      title={t('usersAdmin.title')}
      description={t('usersAdmin.description')}
      headingNoWrap
      before={
        <Anchor component={Link} to={paths.moderation} size="sm" w="fit-content">
          <Group gap={6} wrap="nowrap">
            <IconArrowLeft size={16} aria-hidden="true" />
            {t('usersAdmin.moderation')}
          </Group>
        </Anchor>
      }
      tabs={TABS}
      tabsLabel={t('usersAdmin.tabs.label')}
      tabLabel={(key) => t(`usersAdmin.tabs.${key}`)}
      tabTestId={(key) => `users-admin-tab-${key}`}
      panels={{
        users: <UsersTab />,
        beta: <BetaTestersTab />,
        usage: <ApiUsageTab />,
        platform: <PlatformTab />,
        ranks: <RanksTab />,
      }}
    />
  );
}
