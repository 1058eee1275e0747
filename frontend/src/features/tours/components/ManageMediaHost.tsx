import { lazy, useEffect, useState } from 'react';

import { registerAppAction } from '../../../shared/actions/appActions';
import { whenSignedIn } from '../../../shared/auth/loginDialog';
import { MountWhenOpened } from '../../../shared/ui/MountWhenOpened';

const ManageMediaDialog = lazy(async () => ({ default: (await import('./ManageMediaDialog')).ManageMediaDialog }));

/** Spec §2 "manage media dashboard", opened from the menu's 'Manage Media'; fetched when first opened. */
export function ManageMediaHost() {
  const [opened, setOpened] = useState(false);

  useEffect(
    () =>
      registerAppAction('manageMedia', whenSignedIn(() => setOpened(true))),
    [],
  );

  return (
    <MountWhenOpened opened={opened}>
      <ManageMediaDialog opened={opened} onClose={() => setOpened(false)} />
    </MountWhenOpened>
  );
}
