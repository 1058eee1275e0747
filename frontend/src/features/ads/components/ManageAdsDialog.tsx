import '../../../shared/i18n/adsTexts';

import { lazy } from 'react';
import { useTranslation } from 'react-i18next';

import { ManageDialogFrame } from '../../../shared/manage/ManageDialogFrame';

const ManageAdsDashboard = lazy(async () => ({ default: (await import('./ManageAdsDashboard')).ManageAdsDashboard }));

/** The manage ads modal; loaded when first opened (ManageAdsHost). */
export function ManageAdsDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <ManageDialogFrame opened={opened} onClose={onClose} title={t('manageAds.title')}>
      <ManageAdsDashboard />
    </ManageDialogFrame>
  );
}
