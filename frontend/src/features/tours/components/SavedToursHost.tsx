import { lazy, useEffect, useState } from 'react';

import { registerAppAction } from '../../../shared/actions/appActions';
import { whenSignedIn } from '../../../shared/auth/loginDialog';
import { MountWhenOpened } from '../../../shared/ui/MountWhenOpened';

const SavedToursDialog = lazy(async () => ({ default: (await import('./SavedToursDialog')).SavedToursDialog }));

/** Spec §2 "saved tours": the user's saved tours, from the profile menu. The modal is fetched when first opened. */
export function SavedToursHost() {
  const [opened, setOpened] = useState(false);

  useEffect(
    () =>
      registerAppAction('savedTours', whenSignedIn(() => setOpened(true))),
    [],
  );

  return (
    <MountWhenOpened opened={opened}>
      <SavedToursDialog opened={opened} onClose={() => setOpened(false)} />
    </MountWhenOpened>
  );
}
