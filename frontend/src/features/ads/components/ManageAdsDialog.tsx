import '../../../shared/i18n/adsTexts';

import { Modal } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';

import { PartLoading } from '../../../shared/ui/PartLoading';

const ManageAdsDashboard = lazy(async () => ({ default: (await import('./ManageAdsDashboard')).ManageAdsDashboard }));

/** The manage ads modal; loaded when first opened (ManageAdsHost). */
export function ManageAdsDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('manageAds.title')}
      fullScreen
      radius={0}
      styles={{
        title: { fontWeight: 750, fontSize: '1.35rem' },
        // A wide screen keeps the list at a readable width, title and close button included.
        header: { maxWidth: 1312, margin: '0 auto', width: '100%' },
        body: { maxWidth: 1312, margin: '0 auto' },
      }}
    >
      {opened && (
        <Suspense fallback={<PartLoading minHeight={320} />}>
          <ManageAdsDashboard />
        </Suspense>
      )}
    </Modal>
  );
}
