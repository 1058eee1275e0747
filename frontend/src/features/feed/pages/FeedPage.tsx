import { useInfiniteQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';

import { useFilterState } from '../../../shared/filters/filterState';
import { filteredGridQueryOptions } from '../api/filteredGrid';
import { GridSummary } from '../components/GridSummary';
import { InfiniteCardGrid } from '../components/InfiniteCardGrid';
import classes from './FeedPage.module.css';

/** The feed (spec §2 `/feed`, route gridHome): the grid of the current filters, endlessly scrolled. */
export function FeedPage() {
  const filters = useFilterState();
  const { i18n } = useTranslation();
  const grid = useInfiniteQuery(filteredGridQueryOptions(filters, i18n.language));
  return (
    <main className={classes.page}>
      <GridSummary total={grid.data?.pages[0]?.total_items ?? null} />
      <InfiniteCardGrid grid={grid} />
    </main>
  );
}
