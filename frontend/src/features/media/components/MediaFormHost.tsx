import { lazy, useEffect } from 'react';

import { registerAppAction } from '../../../shared/actions/appActions';
import { whenSignedIn } from '../../../shared/auth/loginDialog';
import { openMediaForm, useMediaFormRequest } from '../../../shared/media/mediaFormRequest';
import { MountWhenOpened } from '../../../shared/ui/MountWhenOpened';

// The modal, and with it the form and its pin picker's map, is fetched when first opened.
const MediaFormDialog = lazy(async () => ({ default: (await import('./MediaFormDialog')).MediaFormDialog }));

/**
 * The add/edit media form (spec §2), rendered once for the whole app. 'Add media' in the top bar and
 * the menu opens it through the app action; the tour page and the dashboard ask for edit mode.
 */
export function MediaFormHost() {
  const request = useMediaFormRequest();

  useEffect(
    () =>
      registerAppAction('addMedia', whenSignedIn(() => openMediaForm({ mode: 'add' }))),
    [],
  );

  return (
    <MountWhenOpened opened={request !== null}>
      <MediaFormDialog />
    </MountWhenOpened>
  );
}
