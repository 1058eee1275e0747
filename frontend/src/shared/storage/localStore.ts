import { externalStore, type ReadableStore } from '../lib/store';

/**
 * Every key the app keeps in localStorage (spec §3 "Stored locally"), and safe access to them:
 * private browsing or a full quota must never break the page, so failures read as "nothing stored".
 */
export const STORAGE_KEYS = {
  accessToken: 'access_token',
  guestToken: 'guest_token',
  guestId: 'guest_id',
  currentUserId: 'currentUserId',
  currentUserCreatorId: 'currentUserCreatorId',
  userData: 'userData',
  sessionId: 'sessionId',
  locale: 'localise',
  gridItemId: 'gridItemId',
  previousRoute: 'previousRoute',
  currentRoute: 'currentRoute',
  restrictAccess: 'restrict_access',
  userLocation: 'user_location',
  mapStyle: 'mapStyle',
  mapCenter: 'mapCenter',
  mapZoom: 'mapZoom',
  userState: 'userState',
  filterSorting: 'filterSorting',
  notShowWhiteLabel: 'notShowWhiteLabel',
  providerAttention: 'providerAttention',
  cookieConsent: 'cookieConsent',
  previewGuideSeen: 'previewGuideSeen',
  dailyFeatured: 'dailyFeatured',
  /** Creator ids whose owner dismissed the group invitation on their page (spec §2 "group invitation"). */
  creatorGroupDismissed: 'creatorGroupDismissed',
} as const;

export type StorageKey = (typeof STORAGE_KEYS)[keyof typeof STORAGE_KEYS];

type Listener = () => void;
const listeners = new Set<Listener>();

function notify(): void {
  listeners.forEach((listener) => listener());
}

export function readItem(key: StorageKey): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function writeItem(key: StorageKey, value: string): void {
  try {
    window.localStorage.setItem(key, value);
  } catch {
    // Storage unavailable: the value lives only as long as the page, which is acceptable.
  }
  notify();
}

export function removeItem(key: StorageKey): void {
  try {
    window.localStorage.removeItem(key);
  } catch {
    // Nothing stored, nothing to remove.
  }
  notify();
}

export function readJson<T>(key: StorageKey, isValid: (value: unknown) => value is T): T | null {
  return parseJson(readItem(key), isValid);
}

/** Stored JSON text as a `T`; null when there is none, it does not parse, or it is not a `T`. */
export function parseJson<T>(raw: string | null, isValid: (value: unknown) => value is T): T | null {
  if (raw === null) return null;
  try {
    const parsed: unknown = JSON.parse(raw);
    return isValid(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

export function writeJson(key: StorageKey, value: unknown): void {
  writeItem(key, JSON.stringify(value));
}

/** Subscribe to changes made by this tab (through these helpers) and by other tabs (`storage` events). */
export function subscribeToStorage(listener: Listener): () => void {
  listeners.add(listener);
  window.addEventListener('storage', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', listener);
  };
}

/**
 * A store of what one key holds, parsed by `parse` (null when nothing is stored). The value is parsed
 * again only when the stored text changes, so components following it see the same object until then.
 */
export function storedValue<T>(key: StorageKey, parse: (raw: string | null) => T): ReadableStore<T> {
  let cached: { raw: string | null; value: T } | null = null;
  return externalStore(subscribeToStorage, () => {
    const raw = readItem(key);
    if (cached === null || cached.raw !== raw) cached = { raw, value: parse(raw) };
    return cached.value;
  });
}
