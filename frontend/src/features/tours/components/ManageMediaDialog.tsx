import { Modal } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';

import { PartLoading } from '../../../shared/ui/PartLoading';

// Creators and admins only (its featured-order list brings dnd-kit): fetched when first opened.
const ManageMediaDashboard = lazy(async () => ({ default: (await import('./ManageMediaDashboard')).ManageMediaDashboard }));

/** The manage media modal; loaded when first opened (ManageMediaHost). */
export function ManageMediaDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={opened}
      onClose={onClose}
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
          <ManageMediaDashboard onOpenTour={onClose} />
        </Suspense>
      )}
    </Modal>
  );
}
