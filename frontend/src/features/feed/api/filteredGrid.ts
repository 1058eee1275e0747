import { infiniteQueryOptions, type QueryClient } from '@tanstack/react-query';

import { discoveryCreatorMedia, discoveryFilteredGrid } from '../../../shared/api/generated/sdk.gen';
import type { GridPage } from '../../../shared/api/generated/types.gen';
import { isSignedIn } from '../../../shared/auth/session';
import { type FilterState, getFilterState, toGridQuery } from '../../../shared/filters/filterState';
import { sessionSeed } from '../../../shared/filters/sessionSeed';
import { feedQueryKeys } from './queryKeys';

/** Spec §9: the grid loads 48 cards at a time; offset = page number × limit. */
export const GRID_PAGE_SIZE = 48;

export type GridCard = GridPage['data'][number];

/** The server pages no deeper than this (offset + limit; the search index's result window). */
export const MAX_RESULT_WINDOW = 100_000;

/** The offset of the next page, or undefined once every card the server counts (or can page to) has been loaded. */
export function nextGridOffset(lastPage: GridPage, lastOffset: number): number | undefined {
  const nextOffset = lastOffset + GRID_PAGE_SIZE;
  const withinWindow = nextOffset + GRID_PAGE_SIZE <= MAX_RESULT_WINDOW;
  return lastPage.data.length > 0 && nextOffset < lastPage.total_items && withinWindow ? nextOffset : undefined;
}

/** The card's identity in the grid: tours by guid, creators and ads by id (their ids overlap). */
export function gridCardKey(card: GridCard): string {
  return card.type === 'vt' ? `vt-${card.guid}` : `${card.type}-${card.id}`;
}

/**
 * Every page's cards in order, each card once. Pages are asked by offset, so a tour published while
 * the visitor scrolls can shift the next page by one and repeat a card: the repeat is dropped.
 */
export function uniqueCards(pages: readonly GridPage[]): GridCard[] {
  const seen = new Set<string>();
  const cards: GridCard[] = [];
  for (const card of pages.flatMap((page) => page.data)) {
    const key = gridCardKey(card);
    if (seen.has(key)) continue;
    seen.add(key);
    cards.push(card);
  }
  return cards;
}

/** The feed made of the visitor's own likes, saves and follows that the filters ask for, if any. */
export function personalFeedOf(filters: Pick<FilterState, 'feed' | 'savesFollow'>): 'for_you' | 'saves_follows' | null {
  if (filters.feed === 'for_you' || filters.feed === 'saves_follows') return filters.feed;
  return filters.savesFollow ? 'saves_follows' : null;
}

/** The grid of the feed (spec §7 filtered-grid); `language` is in the key because cards carry "3 days ago". */
export function filteredGridQueryOptions(filters: FilterState, language: string) {
  const query = { ...toGridQuery(filters), seed: sessionSeed() };
  return infiniteQueryOptions({
    queryKey: feedQueryKeys.filteredGrid(query, language),
    queryFn: async ({ pageParam, signal }) =>
      (await discoveryFilteredGrid({ query: { ...query, limit: GRID_PAGE_SIZE, offset: pageParam }, signal, throwOnError: true })).data,
    initialPageParam: 0,
    getNextPageParam: (lastPage, _pages, lastOffset) => nextGridOffset(lastPage, lastOffset),
  });
}

/**
 * Asks for the feed's first page as its route opens (the router's loaders), beside the route guard's
 * platform check instead of after it and the first render: the cards' previews, the page's largest
 * paint, can be asked for one server round trip sooner. Only when nothing is cached: the page's own
 * query refetches what is there as usual.
 */
export function prefetchFeed(queryClient: QueryClient, language: string): void {
  const filters = getFilterState();
  if (!isSignedIn() && personalFeedOf(filters) !== null) return; // a guest is asked to sign in there
  const options = filteredGridQueryOptions(filters, language);
  if (queryClient.getQueryData(options.queryKey) === undefined) void queryClient.prefetchInfiniteQuery(options);
}

/** One creator's tours with the feed's filters (the creator-scoped grid, spec §2 `/{creatorName}/grid`). */
export function creatorGridQueryOptions(userId: number, filters: FilterState, language: string) {
  // The server scopes this grid to the creator's tours: feed and mode do not apply.
  const query = { ...toGridQuery(filters), feed: undefined, mode: undefined, seed: sessionSeed() };
  return infiniteQueryOptions({
    queryKey: feedQueryKeys.creatorMedia(userId, query, language),
    queryFn: async ({ pageParam, signal }) =>
      (
        await discoveryCreatorMedia({
          path: { user_id: userId },
          query: { ...query, limit: GRID_PAGE_SIZE, offset: pageParam },
          signal,
          throwOnError: true,
        })
      ).data,
    initialPageParam: 0,
    getNextPageParam: (lastPage, _pages, lastOffset) => nextGridOffset(lastPage, lastOffset),
  });
}
