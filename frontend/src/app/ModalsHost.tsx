import { ModalsProvider } from '@mantine/modals';
import { useLayoutEffect } from 'react';
import { useTranslation } from 'react-i18next';

import { replayEarlyModalEvents } from './modalEvents';

/**
 * Where `modals.open` / `modals.openConfirmModal` draw their dialogs. It listens for them (window
 * events) without wrapping the app, so it can arrive after the first screen like the notifications
 * container: Modal, its scroll area and floating-ui stay out of the feed's first download.
 */
export function ModalsHost() {
  const { t } = useTranslation();
  // After the provider's own layout effect has added its listeners (a child's effects run first).
  useLayoutEffect(() => replayEarlyModalEvents(), []);
  return <ModalsProvider labels={{ confirm: t('common.ok'), cancel: t('common.cancel') }}>{null}</ModalsProvider>;
}
