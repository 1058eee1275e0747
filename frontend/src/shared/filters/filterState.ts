import { useSyncExternalStore } from 'react';

import type { DiscoveryFilteredGridData } from '../api/generated/types.gen';

type GridQuery = NonNullable<DiscoveryFilteredGridData['query']>;
export type Sorting = NonNullable<GridQuery['sorting']>;
export type FeedChoice = NonNullable<GridQuery['feed']>;
export type Mode = NonNullable<GridQuery['mode']>;

/** Spec §3 "Filter state" (map bounds and pagination live with the map and the grid). */
export interface FilterState {
  categories: number[];
  subcategories: number[];
  countries: string[];
  vendors: number[];
  media_types: number[];
  tags: number[];
  /** null: the feed's own order (New sorts by newest, Popular by views, spec §2). */
  sorting: Sorting | null;
  mode: Mode;
  searchPattern: string;
  savesFollow: boolean;
  feed: FeedChoice | null;
  /** [longitude, latitude] of the visitor, sent with the Near Me order. */
  near: [number, number] | null;
}

export const INITIAL_FILTER_STATE: FilterState = {
  categories: [],
  subcategories: [],
  countries: [],
  vendors: [],
  media_types: [],
  tags: [],
  sorting: null,
  mode: 'both',
  searchPattern: '',
  savesFollow: false,
  feed: null,
  near: null,
};

export const SORTING_OPTIONS: readonly Sorting[] = [
  'az',
  'za',
  'newest',
  'random',
  'likes',
  'saves',
  'shares',
  'views',
  'near_me',
];
export const FEED_CHOICES: readonly FeedChoice[] = [
  'featured',
  'user_favorite',
  'popular',
  'trending',
  'new',
  'for_you',
  'saves_follows',
];
export const MODE_OPTIONS: readonly Mode[] = ['media', 'creators', 'both'];

const FEED_DEFAULT_SORTING: Partial<Record<FeedChoice, Sorting>> = { new: 'newest', popular: 'views' };

/** The order a feed shows when the visitor picked none (spec §2: New → Newest Added, Popular → Views). */
export function effectiveSorting(state: Pick<FilterState, 'sorting' | 'feed'>): Sorting {
  if (state.sorting !== null) return state.sorting;
  return (state.feed && FEED_DEFAULT_SORTING[state.feed]) ?? 'newest';
}

/**
 * The personal feed ("For You") is ordered by the visitor's taste, so a text search makes no sense
 * there: the top bar hides the search box (spec §2 "hidden when sorting is PERSONAL").
 */
export function isPersonalFeed(state: Pick<FilterState, 'feed'>): boolean {
  return state.feed === 'for_you';
}

/** Search patterns that name a tag (#), a creator (@) or an exact phrase (') act as a filter (spec §5). */
export function isFilterPattern(pattern: string): boolean {
  return /^[#@']/.test(pattern.trim());
}

/** The badge on the filters dropdown: how many of its fields (spec §2) narrow the results. */
export function countActiveFilters(state: FilterState): number {
  const listFields = [state.countries, state.vendors, state.media_types, state.tags];
  const activeLists = listFields.filter((values) => values.length > 0).length;
  const sortingActive = state.sorting !== null ? 1 : 0;
  const modeActive = state.mode !== INITIAL_FILTER_STATE.mode ? 1 : 0;
  const searchActive = isFilterPattern(state.searchPattern) ? 1 : 0;
  return activeLists + sortingActive + modeActive + searchActive;
}

function joinIds(values: readonly (number | string)[]): string | undefined {
  return values.length > 0 ? values.join(',') : undefined;
}

/** The query string of the grid and map calls for this filter state. */
export function toGridQuery(state: FilterState): GridQuery {
  const sorting = state.sorting ?? undefined;
  const nearMe = effectiveSorting(state) === 'near_me' && state.near !== null;
  return {
    categories: joinIds(state.categories),
    subcategories: joinIds(state.subcategories),
    countries: joinIds(state.countries),
    vendors: joinIds(state.vendors),
    media_types: joinIds(state.media_types),
    tags: joinIds(state.tags),
    searchPattern: state.searchPattern.trim() || undefined,
    sorting,
    feed: state.feed ?? undefined,
    mode: state.mode,
    savesFollow: state.savesFollow || undefined,
    lng: nearMe && state.near ? state.near[0] : undefined,
    lat: nearMe && state.near ? state.near[1] : undefined,
  };
}

let current: FilterState = INITIAL_FILTER_STATE;
const listeners = new Set<() => void>();

export function getFilterState(): FilterState {
  return current;
}

export function updateFilterState(change: Partial<FilterState>): void {
  current = { ...current, ...change };
  listeners.forEach((listener) => listener());
}

export function resetFilterState(): void {
  current = INITIAL_FILTER_STATE;
  listeners.forEach((listener) => listener());
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useFilterState(): FilterState {
  return useSyncExternalStore(subscribe, getFilterState, getFilterState);
}
