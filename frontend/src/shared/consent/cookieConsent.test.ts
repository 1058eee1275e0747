import { readSearchHistory, rememberSearch, clearSearchHistory } from '../search/searchHistory';
import { STORAGE_KEYS } from '../storage/localStore';
import { preferenceCookiesAllowed, readCookieConsent, saveCookieConsent } from './cookieConsent';

describe('cookie consent', () => {
  afterEach(() => clearSearchHistory());

  it('is undecided until the visitor chooses', () => {
    expect(readCookieConsent()).toBeNull();
    expect(preferenceCookiesAllowed()).toBe(true);
  });

  it('stores the choice in localStorage `cookieConsent`', () => {
    saveCookieConsent({ preferences: false }, new Date('2026-01-02T03:04:05Z'));
    expect(JSON.parse(localStorage.getItem(STORAGE_KEYS.cookieConsent) ?? 'null')).toEqual({
      necessary: true,
      preferences: false,
      decidedAt: '2026-01-02T03:04:05.000Z',
    });
    expect(readCookieConsent()?.preferences).toBe(false);
    expect(preferenceCookiesAllowed()).toBe(false);
  });

  it('reads a damaged value as undecided', () => {
    localStorage.setItem(STORAGE_KEYS.cookieConsent, '{"preferences":"yes"}');
    expect(readCookieConsent()).toBeNull();
  });

  it('keeps the search history cookie only with preference cookies allowed', () => {
    saveCookieConsent({ preferences: false });
    expect(rememberSearch('Louvre')).toEqual(['Louvre']);
    expect(readSearchHistory()).toEqual([]);
    saveCookieConsent({ preferences: true });
    rememberSearch('Louvre');
    expect(readSearchHistory()).toEqual(['Louvre']);
  });
});
