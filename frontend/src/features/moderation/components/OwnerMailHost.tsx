import { lazy } from 'react';

import { useOwnerMailRequest } from '../../../shared/moderation/ownerMailRequest';
import { MountWhenOpened } from '../../../shared/ui/MountWhenOpened';

const OwnerMailDialog = lazy(async () => ({ default: (await import('./OwnerMailDialog')).OwnerMailDialog }));

/** The e-mail screen an admin gets after deleting or deactivating someone's media; fetched when first asked for. */
export function OwnerMailHost() {
  const request = useOwnerMailRequest();
  return (
    <MountWhenOpened opened={request !== null}>
      <OwnerMailDialog request={request} />
    </MountWhenOpened>
  );
}
