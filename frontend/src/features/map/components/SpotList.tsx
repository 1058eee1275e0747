import { useTranslation } from 'react-i18next';

import type { MapFeature } from '../../../shared/api/generated/types.gen';
import { formatCount } from '../../../shared/format/formatCount';
import { TourListPanel } from './TourListPanel';

interface SpotListProps {
  tours: readonly MapFeature[];
  loading: boolean;
  onClose: () => void;
}

/**
 * The list view (spec §2 map screen): the tours at one spot, when zooming in cannot separate them
 * (above zoom 18, or several tours at the same address).
 */
export function SpotList({ tours, loading, onClose }: SpotListProps) {
  const { t } = useTranslation();
  const rows = tours.map(({ properties: tour }) => ({
    guid: tour.guid,
    title: tour.title,
    picture: tour.preview_picture ?? null,
    detail: [tour.third_party_creator || tour.creator_name, t('map.views', { count: tour.views ?? 0, formatted: formatCount(tour.views) })]
      .filter(Boolean)
      .join(' · '),
  }));
  return (
    <TourListPanel
      label={t('map.listLabel')}
      title={loading ? t('map.listLoading') : t('map.listTitle', { count: tours.length })}
      loading={loading}
      rows={rows}
      closeLabel={t('map.closeList')}
      onClose={onClose}
      testId="map-list"
      rowTestId="map-list-item"
    />
  );
}
