import '../../../shared/i18n/manageTexts'; // this screen's English texts (not in the feed's bundle)
import { lazy } from 'react';
import { useTranslation } from 'react-i18next';

import { ManageDialogFrame } from '../../../shared/manage/ManageDialogFrame';

// Creators and admins only (its featured-order list brings dnd-kit): fetched when first opened.
const ManageMediaDashboard = lazy(async () => ({ default: (await import('./ManageMediaDashboard')).ManageMediaDashboard }));

/** The manage media modal; loaded when first opened (ManageMediaHost). */
export function ManageMediaDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <ManageDialogFrame opened={opened} onClose={onClose} title={t('manageMedia.title')}>
      <ManageMediaDashboard onOpenTour={onClose} />
    </ManageDialogFrame>
  );
}
