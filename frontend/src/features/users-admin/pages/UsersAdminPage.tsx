import '../../../shared/i18n/adminTexts'; // this screen's English texts (not in the feed's bundle)
import { Anchor, Group, Tabs } from '@mantine/core';
import { IconArrowLeft, IconUsers } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { useSession } from '../../../shared/auth/session';
import { paths } from '../../../shared/routing/paths';
import { PageShell } from '../../../shared/ui/PageShell';
import { TabbedPage, useTabInLink } from '../../../shared/ui/TabbedPage';
import { ApiUsageTab } from '../components/ApiUsageTab';
import { BetaTestersTab } from '../components/BetaTestersTab';
import { PlatformTab } from '../components/PlatformTab';
import { RanksTab } from '../components/RanksTab';
import { UsersTab } from '../components/UsersTab';

const TABS = ['users', 'beta', 'usage', 'platform', 'ranks'] as const;

/** Spec §2 "user moderation", "tour transfer", beta testers, platform state and ranks: the admins' page. */
export function UsersAdminPage() {
  const { t } = useTranslation();
  const session = useSession();
  const [tab, choose] = useTabInLink(TABS, 'users');

  if (session.role !== 'admin') {
    return (
      <div data-testid="users-admin-denied">
        <PageShell icon={<IconUsers size={28} />} title={t('usersAdmin.title')} description={t('usersAdmin.adminsOnly')} />
      </div>
    );
  }
  return (
    <TabbedPage
      testId="users-admin-page"
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
      tab={tab}
      onChange={choose}
      tabsLabel={t('usersAdmin.tabs.label')}
      tabLabel={(key) => t(`usersAdmin.tabs.${key}`)}
      tabTestId={(key) => `users-admin-tab-${key}`}
    >
      <Tabs.Panel value="users" pt="md">
        <UsersTab />
      </Tabs.Panel>
      <Tabs.Panel value="beta" pt="md">
        <BetaTestersTab />
      </Tabs.Panel>
      <Tabs.Panel value="usage" pt="md">
        <ApiUsageTab />
      </Tabs.Panel>
      <Tabs.Panel value="platform" pt="md">
        <PlatformTab />
      </Tabs.Panel>
      <Tabs.Panel value="ranks" pt="md">
        <RanksTab />
      </Tabs.Panel>
    </TabbedPage>
  );
}
