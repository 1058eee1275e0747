import { infiniteQueryOptions, keepPreviousData } from '@tanstack/react-query';

import { discoveryFilteredGrid } from '../../../shared/api/generated/sdk.gen';
import type { GridPage, MediaCard } from '../../../shared/api/generated/types.gen';
import { type Bounds, type FilterState, toGridQuery } from '../../../shared/filters/filterState';
import { sessionSeed } from '../../../shared/filters/sessionSeed';
import { mapQueryKeys } from './queryKeys';

/** Tours per page of the list (a short page: the list sits in a panel beside the map). */
export const TOURS_IN_VIEW_PAGE_SIZE = 24;

/**
 * The tours in the visible area (the map's list alternative, reachable by keyboard): the grid's call
 * (spec §7 filtered-grid) with the map's bounds in place of a searched place, tours only, in the
 * grid's order; on a creator's map, that creator's (`userid`). Null bounds (no viewport yet) ask nothing.
 */
export function toursInViewQueryOptions(filters: FilterState, bounds: Bounds | null, userId: number | null, language: string) {
  const query = bounds ? { ...toGridQuery({ ...filters, bounds }), mode: 'media' as const, userid: userId ?? undefined, seed: sessionSeed() } : null;
  return infiniteQueryOptions({
    queryKey: mapQueryKeys.toursInView(query, language),
    queryFn: async ({ pageParam, signal }) =>
      (await discoveryFilteredGrid({ query: { ...query, limit: TOURS_IN_VIEW_PAGE_SIZE, offset: pageParam }, signal, throwOnError: true }))
        .data,
    initialPageParam: 0,
    getNextPageParam: (lastPage: GridPage, _pages, lastOffset: number) => {
      const next = lastOffset + TOURS_IN_VIEW_PAGE_SIZE;
      return lastPage.data.length > 0 && next < lastPage.total_items ? next : undefined;
    },
    enabled: query !== null,
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
}

/** The tour cards of the loaded pages, each once (sponsored cards are not tours in view). */
export function toursOf(pages: readonly GridPage[]): MediaCard[] {
  const seen = new Set<string>();
  const tours: MediaCard[] = [];
  for (const card of pages.flatMap((page) => page.data)) {
    if (card.type !== 'vt' || seen.has(card.guid)) continue;
    seen.add(card.guid);
    tours.push(card);
  }
  return tours;
}
