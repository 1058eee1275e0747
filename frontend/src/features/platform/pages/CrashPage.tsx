import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { IconCloudOff, IconRefresh } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

import { paths } from '../../../shared/routing/paths';
import { readItem, STORAGE_KEYS } from '../../../shared/storage/localStore';
import classes from './StatusPages.module.css';

/** Where the visitor was before the crash page, so "Try again" takes them back there. */
function routeToRetry(): string {
  const candidates = [readItem(STORAGE_KEYS.currentRoute), readItem(STORAGE_KEYS.previousRoute)];
  return candidates.find((route) => route && !route.startsWith(paths.crash)) ?? paths.feed;
}

/** The crash page (spec §2 `/page-not-found`): the platform config could not be loaded. */
export function CrashPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Center className={classes.screen}>
      <Stack align="center" gap="md" maw={460} ta="center">
        <div className={classes.badge} data-tone="warning">
          <IconCloudOff size={34} stroke={1.6} />
        </div>
        <Title order={1} className={classes.title}>
          {t('crash.title')}
        </Title>
        <Text c="dimmed" size="lg">
          {t('crash.text')}
        </Text>
        <Button size="md" radius="xl" leftSection={<IconRefresh size={18} />} onClick={() => navigate(routeToRetry())}>
          {t('common.retry')}
        </Button>
      </Stack>
    </Center>
  );
}
