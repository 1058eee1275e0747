import { useInfiniteQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import { useFilterState } from '../../../shared/filters/filterState';
import { creatorGridQueryOptions } from '../api/filteredGrid';
import type { CardLayout } from './CardGrid';
import { GridSummary } from './GridSummary';
import { InfiniteCardGrid } from './InfiniteCardGrid';

/**
 * One creator's tours with the page's filters, as the feed's endless grid or as a list (the creator
 * page's Full Profile; the search index answers, spec §7 creator-media).
 */
export function CreatorTours({ userId, layout, empty }: { userId: number; layout: CardLayout; empty?: ReactNode }) {
  const filters = useFilterState();
  const { i18n } = useTranslation();
  const grid = useInfiniteQuery(creatorGridQueryOptions(userId, filters, i18n.language));
  return (
    <>
      <GridSummary total={grid.data?.pages[0]?.total_items ?? null} />
      <InfiniteCardGrid grid={grid} empty={empty} layout={layout} />
    </>
  );
}
