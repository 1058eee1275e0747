import { lazy, useEffect, useState } from 'react';

import { registerAppAction } from '../../../shared/actions/appActions';
import { MountWhenOpened } from '../../../shared/ui/MountWhenOpened';

const UpdatesDialog = lazy(async () => ({ default: (await import('./UpdatesDialog')).UpdatesDialog }));

/** Spec §2 "Updates" (release notes), opened from the menu by every role; fetched when first opened. */
export function UpdatesHost() {
  const [opened, setOpened] = useState(false);
  useEffect(() => registerAppAction('updates', () => setOpened(true)), []);
  return (
    <MountWhenOpened opened={opened}>
      <UpdatesDialog opened={opened} onClose={() => setOpened(false)} />
    </MountWhenOpened>
  );
}
