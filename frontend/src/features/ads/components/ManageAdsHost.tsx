import { lazy, useEffect, useState } from 'react';

import { registerAppAction } from '../../../shared/actions/appActions';
import { whenSignedIn } from '../../../shared/auth/loginDialog';
import { MountWhenOpened } from '../../../shared/ui/MountWhenOpened';

const ManageAdsDialog = lazy(async () => ({ default: (await import('./ManageAdsDialog')).ManageAdsDialog }));

/** Spec §2 "manage ads", opened from the menu's 'Manage Ads' (creators and admins); fetched when first opened. */
export function ManageAdsHost() {
  const [opened, setOpened] = useState(false);

  useEffect(() => registerAppAction('manageAds', whenSignedIn(() => setOpened(true))), []);

  return (
    <MountWhenOpened opened={opened}>
      <ManageAdsDialog opened={opened} onClose={() => setOpened(false)} />
    </MountWhenOpened>
  );
}
