import {
  beginOwnFilters,
  endOwnFilters,
  filterStateFromSearchParams,
  filterStateToSearchParams,
  getFilterState,
  INITIAL_FILTER_STATE,
  readGridPages,
  reloadFilterState,
  resetFilterState,
  sanitizeFilterState,
  storeGridPages,
  toGridQuery,
  updateFilterState,
} from './filterState';

describe('filter state ↔ query params', () => {
  it('sends a searched place as the map bounds leftX, leftY, rightX, rightY', () => {
    const query = toGridQuery({ ...INITIAL_FILTER_STATE, bounds: [2.2, 48.8, 2.5, 48.9], address: 'Paris' });
    expect(query).toMatchObject({ leftX: 2.2, leftY: 48.8, rightX: 2.5, rightY: 48.9 });
    expect(toGridQuery(INITIAL_FILTER_STATE).leftX).toBeUndefined();
  });

  it('writes only what differs from the defaults into a page URL', () => {
    expect(filterStateToSearchParams(INITIAL_FILTER_STATE).toString()).toBe('');
    const params = filterStateToSearchParams({
      ...INITIAL_FILTER_STATE,
      categories: [3, 5],
      countries: ['FR'],
      mode: 'media',
      sorting: 'views',
      searchPattern: '#castle',
    });
    expect(Object.fromEntries(params)).toEqual({ categories: '3,5', countries: 'FR', mode: 'media', sorting: 'views', searchPattern: '#castle' });
  });

  it('reads back what it wrote', () => {
    const state = {
      ...INITIAL_FILTER_STATE,
      tags: [7, 9],
      vendors: [2],
      media_types: [4],
      feed: 'popular' as const,
      bounds: [-10, 35, 30, 60] as [number, number, number, number],
      address: 'Europe',
    };
    expect({ ...INITIAL_FILTER_STATE, ...filterStateFromSearchParams(filterStateToSearchParams(state)) }).toEqual(state);
  });

  it('takes from a link only the filters it names, and drops nonsense', () => {
    const change = filterStateFromSearchParams(new URLSearchParams('categories=3,x,-1,3&countries=fr,FRA,de&mode=everything&utm_source=mail'));
    expect(change).toEqual({ categories: [3], countries: ['FR', 'DE'], mode: 'both' });
    expect(filterStateFromSearchParams(new URLSearchParams('leftX=1&leftY=2'))).toEqual({});
  });

  it('opens the #tag search from `tag`: that tag alone, the feed and every other filter cleared', () => {
    const busy = { ...INITIAL_FILTER_STATE, categories: [4], countries: ['FR'], tags: [9], feed: 'saves_follows' as const, searchPattern: 'old', mode: 'media' as const };
    const state = { ...busy, ...filterStateFromSearchParams(new URLSearchParams('tag=12&categories=3')) };
    expect(state).toEqual({ ...INITIAL_FILTER_STATE, tags: [12] });
    expect(filterStateFromSearchParams(new URLSearchParams('tag=abc'))).toEqual({});
  });
});

describe('sanitizeFilterState', () => {
  it('turns anything into a valid state', () => {
    expect(sanitizeFilterState(null)).toEqual(INITIAL_FILTER_STATE);
    expect(sanitizeFilterState('junk')).toEqual(INITIAL_FILTER_STATE);
    const state = sanitizeFilterState({ tags: ['4', 4, 'x'], sorting: 'loudest', feed: 'new', bounds: [0, 95, 1, 1], near: [2.3, 48.8] });
    expect(state).toMatchObject({ tags: [4], sorting: null, feed: 'new', bounds: null, near: [2.3, 48.8] });
  });

  it('never reads an absent bound as 0', () => {
    expect(sanitizeFilterState({ bounds: [null, null, null, null] }).bounds).toBeNull();
    expect(sanitizeFilterState({ bounds: ['', '1', '2', '3'] }).bounds).toBeNull();
  });
});

describe('the stored filter state', () => {
  afterEach(() => resetFilterState());

  it('keeps the filters in userState and the order in filterSorting (spec §3)', () => {
    updateFilterState({ categories: [2], countries: ['IT'], sorting: 'likes' });
    expect(JSON.parse(localStorage.getItem('userState') ?? '{}').filters).toMatchObject({ categories: [2], countries: ['IT'] });
    expect(localStorage.getItem('filterSorting')).toBe('likes');
    updateFilterState({ sorting: null });
    expect(localStorage.getItem('filterSorting')).toBeNull();
  });

  it('comes back after a reload', () => {
    updateFilterState({ tags: [8], mode: 'creators', sorting: 'az' });
    reloadFilterState();
    expect(getFilterState()).toMatchObject({ tags: [8], mode: 'creators', sorting: 'az' });
  });

  it('remembers how many grid pages were loaded, until the filters change', () => {
    storeGridPages({ currentPage: 3, lastPage: 40 });
    expect(readGridPages()).toEqual({ currentPage: 3, lastPage: 40 });
    updateFilterState({ categories: [1] });
    expect(readGridPages().currentPage).toBe(0);
  });

  it('ignores a damaged stored state', () => {
    localStorage.setItem('userState', '{broken');
    localStorage.setItem('filterSorting', 'sideways');
    reloadFilterState();
    expect(getFilterState()).toEqual(INITIAL_FILTER_STATE);
  });
});

describe('a page with filters of its own (the creator page)', () => {
  afterEach(() => {
    endOwnFilters();
    resetFilterState();
  });

  it('shows its filters without storing them, and gives the feed its own back', () => {
    updateFilterState({ categories: [3], sorting: 'likes' });
    const storedFeed = localStorage.getItem('userState');

    beginOwnFilters({ ...INITIAL_FILTER_STATE, countries: ['FR'] });
    updateFilterState({ tags: [9] });
    storeGridPages({ currentPage: 4, lastPage: 9 });
    expect(getFilterState()).toMatchObject({ categories: [], countries: ['FR'], tags: [9], sorting: null });
    expect(localStorage.getItem('userState')).toBe(storedFeed);
    expect(localStorage.getItem('filterSorting')).toBe('likes');

    endOwnFilters();
    expect(getFilterState()).toMatchObject({ categories: [3], countries: [], tags: [], sorting: 'likes' });
  });

  it('takes in what another tab stored for the feed meanwhile', () => {
    beginOwnFilters({ ...INITIAL_FILTER_STATE, countries: ['FR'] });
    localStorage.setItem('filterSorting', 'views');
    reloadFilterState();
    expect(getFilterState().countries).toEqual(['FR']);
    endOwnFilters();
    expect(getFilterState().sorting).toBe('views');
  });
});
