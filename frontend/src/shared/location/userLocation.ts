import { parseJson, readJson, STORAGE_KEYS, storedValue, writeJson } from '../storage/localStore';

/** Spec §3 `user_location`: where the visitor is (center as [longitude, latitude]). */
export interface UserLocation {
  center: [number, number];
  bbox: [number, number, number, number] | null;
  text: string | null;
}

function isCoordinatePair(value: unknown): value is [number, number] {
  return Array.isArray(value) && value.length === 2 && value.every((part) => typeof part === 'number');
}

export function isUserLocation(value: unknown): value is UserLocation {
  if (typeof value !== 'object' || value === null) return false;
  return isCoordinatePair((value as { center?: unknown }).center);
}

export function readUserLocation(): UserLocation | null {
  return readJson(STORAGE_KEYS.userLocation, isUserLocation);
}

export function storeUserLocation(location: UserLocation): void {
  writeJson(STORAGE_KEYS.userLocation, location);
}

const userLocation = storedValue(STORAGE_KEYS.userLocation, (raw) => parseJson(raw, isUserLocation));

export function useUserLocation(): UserLocation | null {
  return userLocation.useStore();
}
