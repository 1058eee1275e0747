import {
  CLEARED_DROPDOWN_FIELDS,
  countActiveFilters,
  filterStateFromSearchParams,
  filterStateToSearchParams,
  INITIAL_FILTER_STATE,
  sanitizeFilterState,
  toGridQuery,
  validDay,
} from './filterState';

/** Issue 18 part 5: the added-date range and the "360° only" switch in the shared filter state. */
describe('the added-date range and the 360° switch', () => {
  const state = { ...INITIAL_FILTER_STATE, added_from: '2026-03-01', added_to: '2026-03-31', only_360: true };

  it('go to every discovery call, and nothing when unset', () => {
    expect(toGridQuery(state)).toMatchObject({ added_from: '2026-03-01', added_to: '2026-03-31', only_360: true });
    const plain = toGridQuery(INITIAL_FILTER_STATE);
    expect(plain.added_from).toBeUndefined();
    expect(plain.added_to).toBeUndefined();
    expect(plain.only_360).toBeUndefined();
  });

  it('count once each in the badge and are cleared with the dropdown', () => {
    expect(countActiveFilters(state)).toBe(2);
    expect(countActiveFilters({ ...INITIAL_FILTER_STATE, added_to: '2026-01-01' })).toBe(1);
    expect(countActiveFilters({ ...state, ...CLEARED_DROPDOWN_FIELDS })).toBe(0);
  });

  it('live in a page link and come back from it (the creator page)', () => {
    const params = filterStateToSearchParams(state);
    expect(params.get('added_from')).toBe('2026-03-01');
    expect(params.get('added_to')).toBe('2026-03-31');
    expect(params.get('only_360')).toBe('true');
    expect(filterStateFromSearchParams(params)).toEqual({ added_from: '2026-03-01', added_to: '2026-03-31', only_360: true });
    expect(filterStateToSearchParams(INITIAL_FILTER_STATE).toString()).toBe('');
    expect(filterStateFromSearchParams(new URLSearchParams('countries=FR'))).toEqual({ countries: ['FR'] });
  });

  it('take only real days, in order, from a hand-edited link or stored state', () => {
    expect(validDay('2024-02-29')).toBe('2024-02-29');
    for (const bad of ['2026-02-30', '2026-13-01', 'yesterday', '26-1-1', '1969-12-31', 20260101, null]) {
      expect(validDay(bad)).toBe('');
    }
    const backwards = filterStateFromSearchParams(new URLSearchParams('added_from=2026-05-02&added_to=2026-05-01'));
    expect(backwards).toMatchObject({ added_from: '2026-05-01', added_to: '2026-05-02' });
    expect(filterStateFromSearchParams(new URLSearchParams('added_from=nonsense'))).toMatchObject({ added_from: '', added_to: '' });
    expect(sanitizeFilterState({ only_360: 'yes', added_to: '2026-02-30' })).toMatchObject({ only_360: false, added_to: '' });
    expect(sanitizeFilterState({ only_360: true })).toMatchObject({ only_360: true });
  });
});
