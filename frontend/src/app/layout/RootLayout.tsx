import { Button, Center, Loader, Stack, Text, Title } from '@mantine/core';
import { lazy, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, ScrollRestoration, useMatches } from 'react-router';

import { ManageAdsHost } from '../../features/ads/components/ManageAdsHost';
import { AnalyticsHost } from '../../features/analytics/components/AnalyticsHost';
import { TrialEndHost } from '../../features/billing/components/TrialEndHost';
import { CookieConsent } from '../../features/consent/components/CookieConsent';
import { DailyFeaturedHost } from '../../features/featured/components/DailyFeaturedHost';
import { BecomeCreatorHost } from '../../features/creators/components/BecomeCreatorHost';
import { MediaFormHost } from '../../features/media/components/MediaFormHost';
import { OwnerMailHost } from '../../features/moderation/components/OwnerMailHost';
import { LanguagePopupHost } from '../../features/settings/components/LanguagePopupHost';
import { SettingsHost } from '../../features/settings/components/SettingsHost';
import { HelpHost } from '../../features/support/components/HelpHost';
import { UpdatesHost } from '../../features/releases/components/UpdatesHost';
import { ManageMediaHost } from '../../features/tours/components/ManageMediaHost';
import { SavedToursHost } from '../../features/tours/components/SavedToursHost';
import { HostRequestHost } from '../../features/vendors/components/HostRequestHost';
import { useLoginDialogOpen } from '../../shared/auth/loginDialog';
import { useRealtimeConnection } from '../../shared/socket/useRealtime';
import { markFirstScreenDrawn } from '../../shared/timing/afterFirstScreen';
import { LogoMark } from '../../shared/ui/Logo';
import { MountWhenOpened } from '../../shared/ui/MountWhenOpened';
import type { AppRouteHandle } from '../router';

// Dialogs are fetched when first opened (frontend/README.md, "Bundle budget").
const LoginDialog = lazy(async () => ({ default: (await import('../../features/auth/components/LoginDialog')).LoginDialog }));

/**
 * Everything under the route guard, plus what every screen can open: the login dialog, settings, the
 * language popup and the cookie consent.
 */
export function RootLayout() {
  useFirstScreenOfOtherPages();
  useRealtimeConnection(); // the tab's one Socket.IO connection: pushed events land in the query cache
  const loginDialogOpen = useLoginDialogOpen();
  return (
    <>
      <Outlet />
      <MountWhenOpened opened={loginDialogOpen}>
        <LoginDialog />
      </MountWhenOpened>
      <SettingsHost />
      <LanguagePopupHost />
      <CookieConsent />
      <ManageMediaHost />
      <ManageAdsHost />
      <SavedToursHost />
      <MediaFormHost />
      <HostRequestHost />
      <DailyFeaturedHost />
      <BecomeCreatorHost />
      <OwnerMailHost />
      <TrialEndHost />
      <AnalyticsHost />
      <UpdatesHost />
      <HelpHost />
      <ScrollRestoration />
    </>
  );
}

/**
 * The feed says when its first screen is drawn (its first previews have arrived); any other page
 * opened first has drawn it at the page's `load`.
 */
function useFirstScreenOfOtherPages(): void {
  const matches = useMatches();
  const [openedOnFeed] = useState(() => matches.some((match) => (match.handle as AppRouteHandle | undefined)?.name === 'gridHome'));
  useEffect(() => {
    if (openedOnFeed) return undefined;
    if (document.readyState === 'complete') {
      markFirstScreenDrawn();
      return undefined;
    }
    window.addEventListener('load', markFirstScreenDrawn, { once: true });
    return () => window.removeEventListener('load', markFirstScreenDrawn);
  }, [openedOnFeed]);
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
