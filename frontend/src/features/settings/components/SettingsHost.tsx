import { lazy, useEffect } from 'react';

import { registerAppAction } from '../../../shared/actions/appActions';
import { useSession } from '../../../shared/auth/session';
import { openSettingsDialog, useSettingsDialog } from '../../../shared/settings/settingsDialog';
import { MountWhenOpened } from '../../../shared/ui/MountWhenOpened';

const SettingsModal = lazy(async () => ({ default: (await import('./SettingsModal')).SettingsModal }));

/** The 'settings' app action, and the settings modal, fetched when first opened. */
export function SettingsHost() {
  const { opened } = useSettingsDialog();
  const session = useSession();
  useEffect(() => registerAppAction('settings', () => openSettingsDialog('account')), []);
  return (
    <MountWhenOpened opened={opened && session.signedIn}>
      <SettingsModal />
    </MountWhenOpened>
  );
}
