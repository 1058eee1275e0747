import {
  clearSearchHistory,
  decodeHistory,
  encodeHistory,
  readSearchHistory,
  rememberSearch,
  SEARCH_HISTORY_COOKIE,
  withSearch,
} from './searchHistory';

describe('search history', () => {
  afterEach(() => clearSearchHistory());

  it('keeps the newest first, without repeats, at most 5', () => {
    let history: string[] = [];
    for (const entry of ['one', 'two', 'three', 'four', 'five', 'six']) history = withSearch(history, entry);
    expect(history).toEqual(['six', 'five', 'four', 'three', 'two']);
    expect(withSearch(history, 'FOUR')).toEqual(['FOUR', 'six', 'five', 'three', 'two']);
  });

  it('ignores blank searches and trims the rest', () => {
    expect(withSearch(['a'], '   ')).toEqual(['a']);
    expect(withSearch([], '  #museum ')).toEqual(['#museum']);
  });

  it('survives commas, semicolons and non-Latin text in the cookie', () => {
    const history = ['a; b', 'Санкт-Петербург', "'old, town'"];
    expect(decodeHistory(encodeHistory(history))).toEqual(history);
    expect(encodeHistory(history)).not.toMatch(/[;,\s]/);
  });

  it('reads a broken or foreign cookie as no history', () => {
    expect(decodeHistory(undefined)).toEqual([]);
    expect(decodeHistory('%7Bnot-json')).toEqual([]);
    expect(decodeHistory(encodeURIComponent(JSON.stringify({ a: 1 })))).toEqual([]);
    expect(decodeHistory(encodeURIComponent(JSON.stringify(['ok', 3, '']))).toString()).toBe('ok');
  });

  it('stores the history in a 7-day cookie', () => {
    const written: string[] = [];
    const descriptor = Object.getOwnPropertyDescriptor(Document.prototype, 'cookie');
    vi.spyOn(document, 'cookie', 'set').mockImplementation((value: string) => {
      written.push(value);
      descriptor?.set?.call(document, value);
    });
    rememberSearch('paris');
    expect(written.at(-1)).toMatch(new RegExp(`^${SEARCH_HISTORY_COOKIE}=.+; max-age=604800; path=/; SameSite=Lax$`));
    rememberSearch('#museum');
    expect(readSearchHistory()).toEqual(['#museum', 'paris']);
  });

  it('clears the cookie', () => {
    rememberSearch('paris');
    clearSearchHistory();
    expect(readSearchHistory()).toEqual([]);
  });
});
