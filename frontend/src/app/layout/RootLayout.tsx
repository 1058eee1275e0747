import { Button, Center, Loader, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Outlet, ScrollRestoration } from 'react-router';

import { LoginDialog } from '../../features/auth/components/LoginDialog';
import { LogoMark } from '../../shared/ui/Logo';

/** Everything under the route guard, plus what every screen can open (the login dialog). */
export function RootLayout() {
  return (
    <>
      <Outlet />
      <LoginDialog />
      <ScrollRestoration />
    </>
  );
}

/** Shown while the guard's first check runs, before any page can be drawn. */
export function RootLoading() {
  const { t } = useTranslation();
  return (
    <Center h="100dvh">
      <Stack align="center" gap="md">
        <LogoMark size={48} />
        <Loader size="sm" aria-label={t('page.loading')} />
      </Stack>
    </Center>
  );
}

/** An unexpected error while rendering a route: say so and offer a fresh start. */
export function RouteError() {
  const { t } = useTranslation();
  return (
    <Center h="100dvh" p="md">
      <Stack align="center" gap="md" maw={420} ta="center">
        <LogoMark size={48} />
        <Title order={1} size="h2">
          {t('routeError.title')}
        </Title>
        <Text c="dimmed">{t('routeError.text')}</Text>
        <Button radius="xl" onClick={() => window.location.assign('/')}>
          {t('routeError.reload')}
        </Button>
      </Stack>
    </Center>
  );
}
