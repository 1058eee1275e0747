import { lazy } from 'react';

import { useSession } from '../../../shared/auth/session';
import { MountWhenOpened } from '../../../shared/ui/MountWhenOpened';
import { useHostRequestDialog } from '../../../shared/vendors/hostRequestDialog';

const HostRequestModal = lazy(async () => ({ default: (await import('./HostRequestModal')).HostRequestModal }));

/** The custom host request dialog, fetched when first opened (from the media form or settings). */
export function HostRequestHost() {
  const { opened } = useHostRequestDialog();
  const session = useSession();
  return (
    <MountWhenOpened opened={opened && session.signedIn}>
      <HostRequestModal />
    </MountWhenOpened>
  );
}
