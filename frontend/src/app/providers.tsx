import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import './global.css';

import { MantineProvider } from '@mantine/core';
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { i18n as I18n } from 'i18next';
import { lazy, type ReactNode, Suspense, useMemo } from 'react';
import { I18nextProvider, useTranslation } from 'react-i18next';

import { afterFirstScreen } from '../shared/timing/afterFirstScreen';
import { bufferEarlyModalEvents } from './modalEvents';
import { themeWithLabels } from './theme';

// Fetched beside the first screen, not before it: `notifications.show` queues in a store the
// container reads once it arrives, so nothing shown meanwhile is lost.
const Notifications = lazy(async () => {
  await afterFirstScreen();
  return { default: (await import('./NotificationsContainer')).Notifications };
});
// The same for the dialogs of `modals.open`; one asked for before it arrives opens once it is there.
const ModalsHost = lazy(async () => {
  await afterFirstScreen();
  return { default: (await import('./ModalsHost')).ModalsHost };
});
bufferEarlyModalEvents();

interface AppProvidersProps {
  queryClient: QueryClient;
  i18n: I18n;
  children: ReactNode;
}

/** The UI kit, server-state cache and translations, around everything the router renders. */
export function AppProviders({ queryClient, i18n, children }: AppProvidersProps) {
  return (
    <I18nextProvider i18n={i18n}>
      <TranslatedMantineProvider>
        <QueryClientProvider client={queryClient}>
          <Suspense fallback={null}>
            <Notifications position="top-center" />
          </Suspense>
          <Suspense fallback={null}>
            <ModalsHost />
          </Suspense>
          {children}
        </QueryClientProvider>
      </TranslatedMantineProvider>
    </I18nextProvider>
  );
}

function TranslatedMantineProvider({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const close = t('common.close');
  const theme = useMemo(() => themeWithLabels({ close }), [close]);
  return (
    <MantineProvider theme={theme} defaultColorScheme="light">
      {children}
    </MantineProvider>
  );
}
