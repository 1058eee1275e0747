import { Modal } from '@mantine/core';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { registerAppAction } from '../../../shared/actions/appActions';
import { whenSignedIn } from '../../../shared/auth/loginDialog';
import { PartLoading } from '../../../shared/ui/PartLoading';

// Creators and admins only (its featured-order list brings dnd-kit): fetched when first opened.
const ManageMediaDashboard = lazy(async () => ({ default: (await import('./ManageMediaDashboard')).ManageMediaDashboard }));

/** Spec §2 "manage media dashboard", opened from the menu's 'Manage Media'. */
export function ManageMediaHost() {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);

  useEffect(
    () =>
      registerAppAction('manageMedia', whenSignedIn(() => setOpened(true))),
    [],
  );

  return (
    <Modal
      opened={opened}
      onClose={() => setOpened(false)}
      title={t('manageMedia.title')}
      fullScreen
      radius={0}
      styles={{
        title: { fontWeight: 750, fontSize: '1.35rem' },
        // A wide screen keeps the dashboard at a readable width, title and close button included.
        header: { maxWidth: 1312, margin: '0 auto', width: '100%' },
        body: { maxWidth: 1312, margin: '0 auto' },
      }}
    >
      {opened && (
        <Suspense fallback={<PartLoading minHeight={320} />}>
          <ManageMediaDashboard onOpenTour={() => setOpened(false)} />
        </Suspense>
      )}
    </Modal>
  );
}
