import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import './global.css';

import { MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { i18n as I18n } from 'i18next';
import { lazy, type ReactNode, Suspense, useMemo } from 'react';
import { I18nextProvider, useTranslation } from 'react-i18next';

import { themeWithLabels } from './theme';

// Fetched beside the first screen, not before it: `notifications.show` queues in a store the
// container reads once it arrives, so nothing shown meanwhile is lost.
const Notifications = lazy(async () => ({ default: (await import('./NotificationsContainer')).Notifications }));

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
          <TranslatedModals>
            <Suspense fallback={null}>
              <Notifications position="top-center" />
            </Suspense>
            {children}
          </TranslatedModals>
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

function TranslatedModals({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  return <ModalsProvider labels={{ confirm: t('common.ok'), cancel: t('common.cancel') }}>{children}</ModalsProvider>;
}
