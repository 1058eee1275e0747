import { readItem, readJson, STORAGE_KEYS, writeItem, writeJson } from '../../shared/storage/localStore';
import { readUserLocation } from '../../shared/location/userLocation';
import { DEFAULT_MAP_STYLE, MAP_STYLE_NAMES, type MapStyleName } from '../../shared/map/basemap';

/** Spec §9: the map opens at zoom 5, and at 14 when it is centred on known coordinates. */
export const DEFAULT_ZOOM = 5;
export const LOCATION_ZOOM = 14;
/** Centre of Europe [longitude, latitude], for a first visit with no known location. */
export const EUROPE_CENTER: [number, number] = [10.45, 51.17];

function isMapStyleName(value: string | null): value is MapStyleName {
  return MAP_STYLE_NAMES.some((name) => name === value);
}

function isCenter(value: unknown): value is [number, number] {
  return (
    Array.isArray(value) &&
    value.length === 2 &&
    typeof value[0] === 'number' &&
    typeof value[1] === 'number' &&
    Math.abs(value[0]) <= 180 &&
    Math.abs(value[1]) <= 90
  );
}

export function readMapStyle(): MapStyleName {
  const stored = readItem(STORAGE_KEYS.mapStyle);
  return isMapStyleName(stored) ? stored : DEFAULT_MAP_STYLE;
}

export function storeMapStyle(name: MapStyleName): void {
  writeItem(STORAGE_KEYS.mapStyle, name);
}

/** Where the map opens: where it was left, else the visitor's location, else Europe. */
export function initialCamera(): { center: [number, number]; zoom: number } {
  const storedCenter = readJson(STORAGE_KEYS.mapCenter, isCenter);
  const storedZoom = Number(readItem(STORAGE_KEYS.mapZoom));
  const zoom = readItem(STORAGE_KEYS.mapZoom) !== null && Number.isFinite(storedZoom) ? storedZoom : DEFAULT_ZOOM;
  const center = storedCenter ?? readUserLocation()?.center ?? EUROPE_CENTER;
  return { center, zoom };
}

export function storeCamera(center: [number, number], zoom: number): void {
  writeJson(STORAGE_KEYS.mapCenter, center);
  writeItem(STORAGE_KEYS.mapZoom, String(Math.round(zoom * 100) / 100));
}
