import '../../../shared/i18n/adminTexts'; // this screen's English texts (not in the feed's bundle)
import { Anchor, Container, Group, Stack, Tabs, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconUsers } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';

import { useSession } from '../../../shared/auth/session';
import { paths } from '../../../shared/routing/paths';
import { PageShell } from '../../../shared/ui/PageShell';
import { ApiUsageTab } from '../components/ApiUsageTab';
import { BetaTestersTab } from '../components/BetaTestersTab';
import { PlatformTab } from '../components/PlatformTab';
import { RanksTab } from '../components/RanksTab';
import classes from '../components/UsersAdmin.module.css';
import { UsersTab } from '../components/UsersTab';

const TABS = ['users', 'beta', 'usage', 'platform', 'ranks'] as const;
type TabKey = (typeof TABS)[number];

function isTab(value: string | null): value is TabKey {
  return (TABS as readonly (string | null)[]).includes(value);
}

/** Spec §2 "user moderation", "tour transfer", beta testers, platform state and ranks: the admins' page. */
export function UsersAdminPage() {
  const { t } = useTranslation();
  const session = useSession();
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const tab: TabKey = isTab(requested) ? requested : 'users';

  if (session.role !== 'admin') {
    return (
      <div data-testid="users-admin-denied">
        <PageShell icon={<IconUsers size={28} />} title={t('usersAdmin.title')} description={t('usersAdmin.adminsOnly')} />
      </div>
    );
  }
  const choose = (next: string | null) =>
    setParams(
      () => {
        const search = new URLSearchParams();
        if (next && next !== 'users' && isTab(next)) search.set('tab', next);
        return search;
      },
      { replace: true },
    );
  return (
    <Container size={1312} className={classes.page} data-testid="users-admin-page">
      <Stack gap="md">
        <Anchor component={Link} to={paths.moderation} size="sm" w="fit-content">
          <Group gap={6} wrap="nowrap">
            <IconArrowLeft size={16} aria-hidden="true" />
            {t('usersAdmin.moderation')}
          </Group>
        </Anchor>
        <Stack gap={4}>
          <Group gap="xs" wrap="nowrap">
            <IconUsers size={26} color="var(--mantine-color-brand-7)" aria-hidden="true" />
            <Title order={1} size="h2">
              {t('usersAdmin.title')}
            </Title>
          </Group>
          <Text c="dimmed" size="sm" maw={760}>
            {t('usersAdmin.description')}
          </Text>
        </Stack>
        <Tabs value={tab} onChange={choose} keepMounted={false} classNames={{ list: classes.tabList, tab: classes.tab }}>
          <Tabs.List aria-label={t('usersAdmin.tabs.label')}>
            {TABS.map((key) => (
              <Tabs.Tab key={key} value={key} data-testid={`users-admin-tab-${key}`}>
                {t(`usersAdmin.tabs.${key}`)}
              </Tabs.Tab>
            ))}
          </Tabs.List>
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
        </Tabs>
      </Stack>
    </Container>
  );
}
