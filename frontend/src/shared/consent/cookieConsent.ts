import { useSyncExternalStore } from 'react';

import { readItem, readJson, STORAGE_KEYS, subscribeToStorage, writeJson } from '../storage/localStore';

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

// useSyncExternalStore needs a stable snapshot: re-read only when the stored text changes.
let cachedRaw: string | null | undefined;
let cachedConsent: CookieConsent | null = null;

function snapshot(): CookieConsent | null {
  const raw = readItem(STORAGE_KEYS.cookieConsent);
  if (raw !== cachedRaw) {
    cachedRaw = raw;
    cachedConsent = readCookieConsent();
  }
  return cachedConsent;
}

export function useCookieConsent(): CookieConsent | null {
  return useSyncExternalStore(subscribeToStorage, snapshot, snapshot);
}

// The preferences dialog can be opened again from anywhere (the help tool's 'cookie preferences').
let preferencesOpen = false;
const preferenceListeners = new Set<() => void>();

function setPreferencesOpen(next: boolean): void {
  preferencesOpen = next;
  preferenceListeners.forEach((listener) => listener());
}

export function openCookiePreferences(): void {
  setPreferencesOpen(true);
}

export function closeCookiePreferences(): void {
  setPreferencesOpen(false);
}

function subscribePreferences(listener: () => void): () => void {
  preferenceListeners.add(listener);
  return () => preferenceListeners.delete(listener);
}

export function useCookiePreferencesOpen(): boolean {
  return useSyncExternalStore(
    subscribePreferences,
    () => preferencesOpen,
    () => preferencesOpen,
  );
}
