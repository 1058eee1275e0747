import { Button, Group } from '@mantine/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';

import type { Bounds, FilterState } from '../../../shared/filters/filterState';
import { formatCount } from '../../../shared/format/formatCount';
import { toursInViewQueryOptions, toursOf } from '../api/toursInView';
import { TourListPanel } from './TourListPanel';

interface ToursInViewProps {
  id: string;
  filters: FilterState;
  /** The visible area; null until the map has drawn once. */
  bounds: Bounds | null;
  /** On a creator's map, that creator's tours only. */
  userId: number | null;
  onClose: () => void;
}

/**
 * The map's list alternative (WCAG 2.2: what the map shows, without a pointer): the tours in the
 * visible area as links, a page at a time, following the map as it moves.
 */
export function ToursInView({ id, filters, bounds, userId, onClose }: ToursInViewProps) {
  const { t, i18n } = useTranslation();
  const list = useInfiniteQuery(toursInViewQueryOptions(filters, bounds, userId, i18n.language));
  const pages = list.data?.pages ?? [];
  const total = pages[0]?.total_items ?? 0;
  const rows = toursOf(pages).map((tour) => ({
    guid: tour.guid,
    title: tour.title,
    picture: tour.preview_picture,
    detail: [t('map.views', { count: tour.views, formatted: formatCount(tour.views) }), tour.created_ago].join(' · '),
  }));
  const loading = list.isPending;
  return (
    <TourListPanel
      id={id}
      label={t('map.inViewLabel')}
      title={loading ? t('map.inViewLoading') : list.isError ? t('feed.errorTitle') : t('map.inViewTitle', { count: total, formatted: formatCount(total) })}
      loading={loading}
      rows={rows}
      closeLabel={t('map.closeList')}
      onClose={onClose}
      empty={list.isError ? null : t('map.nothingHere')}
      footer={
        list.hasNextPage && (
          <Group justify="center" p="sm">
            <Button variant="light" radius="xl" size="sm" loading={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()} data-testid="map-view-list-more">
              {t('map.showMore')}
            </Button>
          </Group>
        )
      }
      testId="map-view-list"
      rowTestId="map-view-list-item"
    />
  );
}
