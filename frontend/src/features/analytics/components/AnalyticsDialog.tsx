import '../../../shared/i18n/adminTexts'; // the screens' English texts (not in the feed's bundle)
import '@mantine/charts/styles.css';
import '@mantine/dates/styles.css';
import 'dayjs/locale/ru';

import { Modal } from '@mantine/core';
import { useTranslation } from 'react-i18next';

import { useIsMobile } from '../../../shared/layout/breakpoints';
import type { AnalyticsKind } from '../model/metrics';
import { AnalyticsScreen } from './AnalyticsScreen';

interface AnalyticsDialogProps {
  kind: AnalyticsKind;
  opened: boolean;
  onClose: () => void;
}

/** A large modal on a desktop, the whole screen on a phone; loaded when first opened (AnalyticsHost). */
export function AnalyticsDialog({ kind, opened, onClose }: AnalyticsDialogProps) {
  const { t } = useTranslation();
  const mobile = useIsMobile();
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t(`creatorAnalytics.titles.${kind}`)}
      size={1240}
      fullScreen={mobile}
      radius={mobile ? 0 : 'lg'}
      styles={{ title: { fontWeight: 750, fontSize: '1.35rem' } }}
      data-testid={`analytics-dialog-${kind}`}
    >
      {/* Keyed by the screen: Analytics and Ads Analytics start from their own defaults. */}
      {opened && <AnalyticsScreen key={kind} kind={kind} />}
    </Modal>
  );
}
