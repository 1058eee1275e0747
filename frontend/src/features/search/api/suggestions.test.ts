import type { SearchResult } from '../../../shared/api/generated/types.gen';
import { placeArea } from '../placeArea';
import { groupSuggestions, isSearchable, searchPrefixOf, splitCreatorText } from './suggestions';

describe('search prefixes (spec §5)', () => {
  it('reads # as tags, @ as creators and a quote as an exact phrase', () => {
    expect(searchPrefixOf('#museum')).toBe('tags');
    expect(searchPrefixOf('  @anna')).toBe('creators');
    expect(searchPrefixOf("'old town")).toBe('exact');
    expect(searchPrefixOf('paris')).toBeNull();
  });

  it('searches only when a letter or digit follows the prefix', () => {
    expect(isSearchable('#')).toBe(false);
    expect(isSearchable('@ ')).toBe(false);
    expect(isSearchable('#a')).toBe(true);
    expect(isSearchable('Санкт')).toBe(true);
  });
});

describe('suggestions', () => {
  const result = (type: SearchResult['type'], id: string): SearchResult => ({ type, id, text: id });

  it('groups places first, then tours, creators and tags, keeping the order within a group', () => {
    const groups = groupSuggestions([result('tag', 't1'), result('tour', 'a'), result('place', 'p1'), result('tour', 'b')]);
    expect(groups.map((group) => [group.kind, group.results.map((item) => item.id)])).toEqual([
      ['place', ['p1']],
      ['tour', ['a', 'b']],
      ['tag', ['t1']],
    ]);
  });

  it('splits a creator result into name and username', () => {
    expect(splitCreatorText('Atlas Media @atlasmedia')).toEqual({ name: 'Atlas Media', username: 'atlasmedia' });
    expect(splitCreatorText('Solo')).toEqual({ name: 'Solo', username: null });
  });
});

describe('placeArea', () => {
  it('fits a place with a bbox', () => {
    expect(placeArea({ bbox: [2.2, 48.8, 2.5, 48.9], center: [2.35, 48.85] })).toEqual({
      bounds: [2.2, 48.8, 2.5, 48.9],
      target: { kind: 'bounds', bounds: [2.2, 48.8, 2.5, 48.9] },
    });
  });

  it('centres a place known by its point at zoom 14, with a small area around it', () => {
    const area = placeArea({ bbox: null, center: [2.35, 48.85] });
    expect(area?.target).toEqual({ kind: 'point', center: [2.35, 48.85], zoom: 14 });
    const [west, south, east, north] = area?.bounds ?? [];
    expect(west).toBeLessThan(2.35);
    expect(east).toBeGreaterThan(2.35);
    expect(south).toBeLessThan(48.85);
    expect(north).toBeGreaterThan(48.85);
  });

  it('gives nothing for a place without coordinates', () => {
    expect(placeArea({ bbox: null, center: null })).toBeNull();
  });
});
