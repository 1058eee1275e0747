import { countActiveFilters, effectiveSorting, INITIAL_FILTER_STATE, isFilterPattern, isPersonalFeed, toGridQuery } from './filterState';

describe('filter state', () => {
  it('counts no active filter at first', () => {
    expect(countActiveFilters(INITIAL_FILTER_STATE)).toBe(0);
  });

  it('counts each dropdown field that narrows the results', () => {
    const state = {
      ...INITIAL_FILTER_STATE,
      countries: ['FR', 'DE'],
      tags: [4],
      sorting: 'views' as const,
      mode: 'media' as const,
      searchPattern: '#castle',
      categories: [1],
    };
    // countries, tags, sorting, mode, search; categories are not in the dropdown.
    expect(countActiveFilters(state)).toBe(5);
  });

  it('counts a search only when it names a tag, a creator or an exact phrase', () => {
    expect(isFilterPattern('#museum')).toBe(true);
    expect(isFilterPattern('@anna')).toBe(true);
    expect(isFilterPattern("'old town'")).toBe(true);
    expect(isFilterPattern('old town')).toBe(false);
    expect(countActiveFilters({ ...INITIAL_FILTER_STATE, searchPattern: 'paris' })).toBe(0);
  });

  it('uses the feed default order when none was picked', () => {
    expect(effectiveSorting({ sorting: null, feed: 'new' })).toBe('newest');
    expect(effectiveSorting({ sorting: null, feed: 'popular' })).toBe('views');
    expect(effectiveSorting({ sorting: 'az', feed: 'popular' })).toBe('az');
    expect(effectiveSorting({ sorting: null, feed: null })).toBe('newest');
  });

  it('treats For You as the personal feed', () => {
    expect(isPersonalFeed({ feed: 'for_you' })).toBe(true);
    expect(isPersonalFeed({ feed: 'popular' })).toBe(false);
  });

  it('turns the state into the grid query string', () => {
    expect(
      toGridQuery({ ...INITIAL_FILTER_STATE, categories: [1, 2], countries: ['FR'], searchPattern: '  castle ', feed: 'trending' }),
    ).toEqual({
      categories: '1,2',
      subcategories: undefined,
      countries: 'FR',
      vendors: undefined,
      media_types: undefined,
      tags: undefined,
      searchPattern: 'castle',
      sorting: undefined,
      feed: 'trending',
      mode: 'both',
      savesFollow: undefined,
      lat: undefined,
      lng: undefined,
    });
  });

  it('sends the visitor position with the Near Me order', () => {
    const query = toGridQuery({ ...INITIAL_FILTER_STATE, sorting: 'near_me', near: [2.35, 48.85] });
    expect(query).toMatchObject({ sorting: 'near_me', lng: 2.35, lat: 48.85 });
  });
});
