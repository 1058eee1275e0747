import type { DiscoveryFilteredGridData } from '../api/generated/types.gen';
import { createStore } from '../lib/store';
import { readItem, readJson, removeItem, STORAGE_KEYS, writeItem, writeJson } from '../storage/localStore';

type GridQuery = NonNullable<DiscoveryFilteredGridData['query']>;
export type Sorting = NonNullable<GridQuery['sorting']>;
export type FeedChoice = NonNullable<GridQuery['feed']>;
export type Mode = NonNullable<GridQuery['mode']>;

/** [west, south, east, north] in degrees: the spec's leftX, leftY, rightX, rightY. */
export type Bounds = [number, number, number, number];

/** Spec §3 "Filter state", shared by the grid and the map (pagination lives with the grid). */
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
  /** A place chosen in search: its name (spec §3 `address`) and the area it covers. */
  address: string;
  bounds: Bounds | null;
  /** [longitude, latitude] of the visitor, sent with the Near Me order. */
  near: [number, number] | null;
  /** Added on or after / on or before this day ('YYYY-MM-DD'; '' leaves that end open). */
  added_from: string;
  added_to: string;
  /** Only panoramas and 360 video (the media types the server marks 360°). */
  only_360: boolean;
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
  address: '',
  bounds: null,
  near: null,
  added_from: '',
  added_to: '',
  only_360: false,
};

export const SORTING_OPTIONS: readonly Sorting[] = ['az', 'za', 'newest', 'random', 'likes', 'saves', 'shares', 'views', 'near_me'];
export const FEED_CHOICES: readonly FeedChoice[] = ['featured', 'user_favorite', 'popular', 'trending', 'new', 'for_you', 'saves_follows'];
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
  const datesActive = state.added_from || state.added_to ? 1 : 0;
  const only360Active = state.only_360 ? 1 : 0;
  return activeLists + sortingActive + modeActive + searchActive + datesActive + only360Active;
}

/** The dropdown's "Clear all": every field it shows goes back to its default; categories and feed stay. */
export const CLEARED_DROPDOWN_FIELDS: Partial<FilterState> = {
  countries: [],
  vendors: [],
  media_types: [],
  tags: [],
  sorting: null,
  mode: INITIAL_FILTER_STATE.mode,
  searchPattern: '',
  address: '',
  bounds: null,
  added_from: '',
  added_to: '',
  only_360: false,
};

function joinIds(values: readonly (number | string)[]): string | undefined {
  return values.length > 0 ? values.join(',') : undefined;
}

/** The query string of the grid and map calls for this filter state. */
export function toGridQuery(state: FilterState): GridQuery {
  const nearMe = effectiveSorting(state) === 'near_me' && state.near !== null;
  return {
    categories: joinIds(state.categories),
    subcategories: joinIds(state.subcategories),
    countries: joinIds(state.countries),
    vendors: joinIds(state.vendors),
    media_types: joinIds(state.media_types),
    tags: joinIds(state.tags),
    searchPattern: state.searchPattern.trim() || undefined,
    sorting: state.sorting ?? undefined,
    feed: state.feed ?? undefined,
    mode: state.mode,
    savesFollow: state.savesFollow || undefined,
    leftX: state.bounds?.[0],
    leftY: state.bounds?.[1],
    rightX: state.bounds?.[2],
    rightY: state.bounds?.[3],
    lng: nearMe && state.near ? state.near[0] : undefined,
    lat: nearMe && state.near ? state.near[1] : undefined,
    added_from: state.added_from || undefined,
    added_to: state.added_to || undefined,
    only_360: state.only_360 || undefined,
  };
}

// ------------------------------------------------------------------ reading untrusted values

const NUMBER_LIST_FIELDS = ['categories', 'subcategories', 'vendors', 'media_types', 'tags'] as const;

function numberList(value: unknown): number[] {
  if (!Array.isArray(value)) return [];
  return [...new Set(value.map(Number).filter((item) => Number.isInteger(item) && item > 0))];
}

function countryList(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  const codes = value.map((item) => String(item).trim().toUpperCase()).filter((code) => /^[A-Z]{2}$/.test(code));
  return [...new Set(codes)];
}

function oneOf<T extends string>(options: readonly T[], value: unknown): T | null {
  return options.find((option) => option === value) ?? null;
}

/** A number, or a string that is exactly one ('' and null are not 0). */
function strictNumber(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && value.trim() !== '') return Number(value);
  return Number.NaN;
}

function validBounds(value: unknown): Bounds | null {
  if (!Array.isArray(value) || value.length !== 4) return null;
  const numbers = value.map(strictNumber);
  if (!numbers.every(Number.isFinite)) return null;
  const [west, south, east, north] = numbers as Bounds;
  const inRange = Math.abs(west) <= 180 && Math.abs(east) <= 180 && Math.abs(south) <= 90 && Math.abs(north) <= 90;
  return inRange && south <= north ? [west, south, east, north] : null;
}

/** A real calendar day as 'YYYY-MM-DD' ('2026-02-30' is not one), else ''. */
export function validDay(value: unknown): string {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return '';
  const [year, month, day] = value.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  const real = date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
  return real && year >= 1970 ? value : '';
}

/** The added-date range with its ends in order (a range given backwards is turned round). */
function validRange(from: string, to: string): [string, string] {
  return from && to && to < from ? [to, from] : [from, to];
}

function validPoint(value: unknown): [number, number] | null {
  if (!Array.isArray(value) || value.length !== 2) return null;
  const [lng, lat] = value.map(strictNumber);
  const valid = lng !== undefined && lat !== undefined && Math.abs(lng) <= 180 && Math.abs(lat) <= 90;
  return valid ? [lng, lat] : null;
}

/** A filter state rebuilt from anything (stored JSON, a hand-edited URL): unknown or bad values become defaults. */
export function sanitizeFilterState(raw: unknown): FilterState {
  const source = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
  const state: FilterState = { ...INITIAL_FILTER_STATE };
  for (const field of NUMBER_LIST_FIELDS) state[field] = numberList(source[field]);
  state.countries = countryList(source.countries);
  state.sorting = oneOf(SORTING_OPTIONS, source.sorting);
  state.mode = oneOf(MODE_OPTIONS, source.mode) ?? INITIAL_FILTER_STATE.mode;
  state.feed = oneOf(FEED_CHOICES, source.feed);
  state.searchPattern = typeof source.searchPattern === 'string' ? source.searchPattern.slice(0, 200) : '';
  state.savesFollow = source.savesFollow === true;
  state.bounds = validBounds(source.bounds);
  state.address = state.bounds && typeof source.address === 'string' ? source.address : '';
  state.near = validPoint(source.near);
  [state.added_from, state.added_to] = validRange(validDay(source.added_from), validDay(source.added_to));
  state.only_360 = source.only_360 === true || source.only_360 === 'true';
  return state;
}

// ------------------------------------------------------------------ page URLs (deep links)

const URL_LIST_FIELDS = ['categories', 'subcategories', 'countries', 'vendors', 'media_types', 'tags'] as const;

/**
 * The filters written into a page's query string, so a link reproduces what the visitor sees
 * (spec §2: the creator pages keep their filters in the query string). Defaults are left out.
 */
export function filterStateToSearchParams(state: FilterState): URLSearchParams {
  const params = new URLSearchParams();
  for (const field of URL_LIST_FIELDS) {
    if (state[field].length > 0) params.set(field, state[field].join(','));
  }
  if (state.mode !== INITIAL_FILTER_STATE.mode) params.set('mode', state.mode);
  if (state.sorting) params.set('sorting', state.sorting);
  if (state.feed) params.set('feed', state.feed);
  if (state.searchPattern.trim()) params.set('searchPattern', state.searchPattern.trim());
  if (state.bounds) {
    const [west, south, east, north] = state.bounds;
    params.set('leftX', String(west));
    params.set('leftY', String(south));
    params.set('rightX', String(east));
    params.set('rightY', String(north));
    if (state.address) params.set('address', state.address);
  }
  if (state.added_from) params.set('added_from', state.added_from);
  if (state.added_to) params.set('added_to', state.added_to);
  if (state.only_360) params.set('only_360', 'true');
  return params;
}

/** Every query-string name filterStateToSearchParams may write (a page's other parameters are not filters). */
export const FILTER_LINK_PARAMS: readonly string[] = [
  ...URL_LIST_FIELDS,
  'mode',
  'sorting',
  'feed',
  'searchPattern',
  'leftX',
  'leftY',
  'rightX',
  'rightY',
  'address',
  'added_from',
  'added_to',
  'only_360',
];

/**
 * The #tag search (a hashtag of a description, a tag on a tour page or the Popular tags page):
 * the tours of that one tag, every other filter and the feed cleared.
 */
export function tagSearchState(tagId: number): Partial<FilterState> {
  return { ...CLEARED_DROPDOWN_FIELDS, categories: [], subcategories: [], feed: null, savesFollow: false, tags: [tagId] };
}

/** The query-string name of the #tag search (`/feed?tag=12`, paths.tagSearch). */
export const TAG_SEARCH_PARAM = 'tag';

/** The filters a page's query string names (only those: the rest of the state is left alone). */
export function filterStateFromSearchParams(params: URLSearchParams): Partial<FilterState> {
  const tagId = Number(params.get(TAG_SEARCH_PARAM));
  if (Number.isInteger(tagId) && tagId > 0) return tagSearchState(tagId);
  const present = (name: string) => params.has(name);
  const listOf = (name: string) => (params.get(name) ?? '').split(',').filter(Boolean);
  const parsed = sanitizeFilterState({
    ...Object.fromEntries(URL_LIST_FIELDS.map((field) => [field, listOf(field)])),
    mode: params.get('mode'),
    sorting: params.get('sorting'),
    feed: params.get('feed'),
    searchPattern: params.get('searchPattern') ?? '',
    bounds: ['leftX', 'leftY', 'rightX', 'rightY'].map((name) => params.get(name)),
    address: params.get('address') ?? '',
    added_from: params.get('added_from'),
    added_to: params.get('added_to'),
    only_360: params.get('only_360'),
  });
  const change: Partial<FilterState> = {};
  for (const field of URL_LIST_FIELDS) if (present(field)) Object.assign(change, { [field]: parsed[field] });
  if (present('mode')) change.mode = parsed.mode;
  if (present('sorting')) change.sorting = parsed.sorting;
  if (present('feed')) change.feed = parsed.feed;
  if (present('searchPattern')) change.searchPattern = parsed.searchPattern;
  if (parsed.bounds) {
    change.bounds = parsed.bounds;
    change.address = parsed.address;
  }
  if (present('added_from') || present('added_to')) {
    change.added_from = parsed.added_from;
    change.added_to = parsed.added_to;
  }
  if (present('only_360')) change.only_360 = parsed.only_360;
  return change;
}

// ------------------------------------------------------------------ the store, kept locally

/**
 * Spec §3 "Stored locally": `userState` holds the filters and the grid's pages, `filterSorting` the
 * chosen order. Both survive a reload, so the visitor comes back to the feed they left.
 */
interface StoredUserState {
  filters: Omit<FilterState, 'sorting'>;
  /** How many grid pages were loaded, and the last page there is (0-based). */
  currentPage: number;
  lastPage: number;
}

export interface GridPages {
  currentPage: number;
  lastPage: number;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function readStoredUserState(): Partial<StoredUserState> {
  return readJson(STORAGE_KEYS.userState, isObject) ?? {};
}

function loadFilterState(): FilterState {
  const stored = readStoredUserState();
  const sorting = readItem(STORAGE_KEYS.filterSorting);
  return sanitizeFilterState({ ...(isObject(stored.filters) ? stored.filters : {}), sorting });
}

function persist(state: FilterState): void {
  const { sorting, ...filters } = state;
  const stored = readStoredUserState();
  // A new set of filters is a new grid: the remembered pages belong to the old one.
  writeJson(STORAGE_KEYS.userState, { filters, currentPage: 0, lastPage: stored.lastPage ?? 0 });
  if (sorting) writeItem(STORAGE_KEYS.filterSorting, sorting);
  else removeItem(STORAGE_KEYS.filterSorting);
}

/** The grid's loaded pages (spec §3 userState "current page, last page"), to come back to a card. */
export function readGridPages(): GridPages {
  const stored = readStoredUserState();
  const page = (value: unknown) => (typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : 0);
  return { currentPage: page(stored.currentPage), lastPage: page(stored.lastPage) };
}

export function storeGridPages(pages: GridPages): void {
  if (setAside !== null) return; // a page's own filters and pages are not the feed's to come back to
  const { sorting: _sorting, ...filters } = filterStore.get();
  writeJson(STORAGE_KEYS.userState, { filters, ...pages });
}

const filterStore = createStore<FilterState>(loadFilterState());

export function getFilterState(): FilterState {
  return filterStore.get();
}

/**
 * The feed's filters while a page with filters of its own is open (the creator page, whose link holds
 * its filters), else null. Meanwhile the page's filters are the store's but are not stored: a reload
 * or a new tab finds the feed's.
 */
let setAside: FilterState | null = null;

/** Stored before subscribers hear of it, so what they read back from storage is already the new state. */
function replaceFilterState(next: FilterState): void {
  if (setAside === null) persist(next);
  filterStore.set(next);
}

/** A page with filters of its own opens: the feed's are set aside, the page's shown (and never stored). */
export function beginOwnFilters(own: FilterState): void {
  if (setAside === null) setAside = filterStore.get();
  filterStore.set(own);
}

/** That page closes: the feed's filters come back as they were. */
export function endOwnFilters(): void {
  if (setAside === null) return;
  const feed = setAside;
  setAside = null;
  filterStore.set(feed);
}

export function updateFilterState(change: Partial<FilterState>): void {
  replaceFilterState({ ...filterStore.get(), ...change });
}

export function resetFilterState(): void {
  replaceFilterState(INITIAL_FILTER_STATE);
}

/** Read the stored state again (another tab changed it, or a test cleared storage). */
export function reloadFilterState(): void {
  if (setAside !== null) setAside = loadFilterState();
  else filterStore.set(loadFilterState());
}

export function useFilterState(): FilterState {
  return filterStore.useStore();
}
