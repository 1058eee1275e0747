import { preferenceCookiesAllowed } from '../consent/cookieConsent';

/** Spec §3/§9: the search history lives in a cookie for 7 days and keeps about 5 entries. */
export const SEARCH_HISTORY_COOKIE = 'searchHistory';
export const SEARCH_HISTORY_DAYS = 7;
export const SEARCH_HISTORY_SIZE = 5;
const MAX_ENTRY_LENGTH = 200;

/** The history after searching `entry`: newest first, no repeats (ignoring case), at most 5. */
export function withSearch(history: readonly string[], entry: string): string[] {
  const text = entry.trim().slice(0, MAX_ENTRY_LENGTH);
  if (!text) return [...history];
  const others = history.filter((previous) => previous.toLowerCase() !== text.toLowerCase());
  return [text, ...others].slice(0, SEARCH_HISTORY_SIZE);
}

/** The cookie's value: URI-encoded JSON, so commas, semicolons and non-Latin text survive. */
export function encodeHistory(history: readonly string[]): string {
  return encodeURIComponent(JSON.stringify(history.slice(0, SEARCH_HISTORY_SIZE)));
}

export function decodeHistory(value: string | undefined): string[] {
  if (!value) return [];
  try {
    const parsed: unknown = JSON.parse(decodeURIComponent(value));
    if (!Array.isArray(parsed)) return [];
    return parsed.filter((item): item is string => typeof item === 'string' && item.trim() !== '').slice(0, SEARCH_HISTORY_SIZE);
  } catch {
    return [];
  }
}

function cookieValue(name: string): string | undefined {
  const prefix = `${name}=`;
  return document.cookie
    .split(';')
    .map((part) => part.trim())
    .find((part) => part.startsWith(prefix))
    ?.slice(prefix.length);
}

export function readSearchHistory(): string[] {
  return decodeHistory(cookieValue(SEARCH_HISTORY_COOKIE));
}

function writeHistoryCookie(value: string, maxAgeSeconds: number): void {
  document.cookie = `${SEARCH_HISTORY_COOKIE}=${value}; max-age=${maxAgeSeconds}; path=/; SameSite=Lax`;
}

/**
 * Remember a search; every search renews the cookie's 7 days. A visitor who chose "necessary
 * cookies only" gets the history for this page but no cookie.
 */
export function rememberSearch(entry: string): string[] {
  const history = withSearch(readSearchHistory(), entry);
  if (preferenceCookiesAllowed()) writeHistoryCookie(encodeHistory(history), SEARCH_HISTORY_DAYS * 24 * 60 * 60);
  return history;
}

export function clearSearchHistory(): void {
  writeHistoryCookie('', 0);
}
