import { createStore } from '../lib/store';
import { parseJson, readJson, STORAGE_KEYS, storedValue, writeJson } from '../storage/localStore';

/**
 * The visitor's cookie choice (spec §2 "cookie consent"), kept in localStorage `cookieConsent`.
 * Necessary storage (sign-in tokens, language, this choice) is always on; `preferences` covers
 * what only makes the app more convenient: the search-history cookie.
 */
export interface CookieConsent {
  necessary: true;
  preferences: boolean;
  /** ISO time of the choice, so a later policy change can ask again. */
  decidedAt: string;
}

function isCookieConsent(value: unknown): value is CookieConsent {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Record<string, unknown>;
  return candidate.necessary === true && typeof candidate.preferences === 'boolean' && typeof candidate.decidedAt === 'string';
}

export function readCookieConsent(): CookieConsent | null {
  return readJson(STORAGE_KEYS.cookieConsent, isCookieConsent);
}

export function saveCookieConsent(choice: { preferences: boolean }, now: Date = new Date()): CookieConsent {
  const consent: CookieConsent = { necessary: true, preferences: choice.preferences, decidedAt: now.toISOString() };
  writeJson(STORAGE_KEYS.cookieConsent, consent);
  return consent;
}

/**
 * Whether preference cookies may be written. Until the visitor decides they may (the banner is on
 * screen saying so); a "necessary only" choice turns them off.
 */
export function preferenceCookiesAllowed(): boolean {
  return readCookieConsent()?.preferences !== false;
}

const storedConsent = storedValue(STORAGE_KEYS.cookieConsent, (raw) => parseJson(raw, isCookieConsent));

export function useCookieConsent(): CookieConsent | null {
  return storedConsent.useStore();
}

// The preferences dialog can be opened again from anywhere (the help tool's 'cookie preferences').
const preferencesOpen = createStore(false);

export function openCookiePreferences(): void {
  preferencesOpen.set(true);
}

export function closeCookiePreferences(): void {
  preferencesOpen.set(false);
}

export function useCookiePreferencesOpen(): boolean {
  return preferencesOpen.useStore();
}
