import { infiniteQueryOptions } from '@tanstack/react-query';

import { discoveryFilteredGrid } from '../../../shared/api/generated/sdk.gen';
import type { GridPage } from '../../../shared/api/generated/types.gen';
import { type FilterState, toGridQuery } from '../../../shared/filters/filterState';

/** Spec §9: the grid loads 48 cards at a time; offset = page number × limit. */
export const GRID_PAGE_SIZE = 48;

export type GridCard = GridPage['data'][number];

/** The offset of the next page, or undefined once every card the server counts has been loaded. */
export function nextGridOffset(lastPage: GridPage, lastOffset: number): number | undefined {
  const nextOffset = lastOffset + GRID_PAGE_SIZE;
  return lastPage.data.length > 0 && nextOffset < lastPage.total_items ? nextOffset : undefined;
}

export function filteredGridQueryOptions(filters: FilterState) {
  const query = toGridQuery(filters);
  return infiniteQueryOptions({
    queryKey: ['discovery', 'filtered-grid', query],
    queryFn: async ({ pageParam, signal }) =>
      (await discoveryFilteredGrid({ query: { ...query, limit: GRID_PAGE_SIZE, offset: pageParam }, signal, throwOnError: true })).data,
    initialPageParam: 0,
    getNextPageParam: (lastPage, _pages, lastOffset) => nextGridOffset(lastPage, lastOffset),
  });
}
