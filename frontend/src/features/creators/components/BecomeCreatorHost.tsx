import { lazy, useEffect } from 'react';

import { registerAppAction } from '../../../shared/actions/appActions';
import { whenSignedIn } from '../../../shared/auth/loginDialog';
import { useSession } from '../../../shared/auth/session';
import { MountWhenOpened } from '../../../shared/ui/MountWhenOpened';
import { openBecomeCreator, useBecomeCreatorOpened } from '../model/becomeCreatorDialog';

// The dialog, its form and their texts are fetched when first opened: never in the feed's first download.
const BecomeCreatorDialog = lazy(async () => ({ default: (await import('./BecomeCreatorDialog')).BecomeCreatorDialog }));

/**
 * The menu's Profile entry for signed-in users who are not creators (spec §2): the way to become a
 * creator. Guests are asked to sign in first.
 */
export function BecomeCreatorHost() {
  const opened = useBecomeCreatorOpened();
  const session = useSession();
  useEffect(() => registerAppAction('profile', whenSignedIn(openBecomeCreator)), []);
  return (
    <MountWhenOpened opened={opened && session.signedIn}>
      <BecomeCreatorDialog />
    </MountWhenOpened>
  );
}
