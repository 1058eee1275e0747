import type { Bounds } from '../../shared/filters/filterState';

const clampLatitude = (value: number) => Math.max(-90, Math.min(90, value));

function wrapLongitude(lng: number): number {
  if (lng >= -180 && lng <= 180) return lng;
  return ((((lng + 180) % 360) + 360) % 360) - 180;
}

/**
 * The visible area as the server takes it: longitudes within ±180 (MapLibre reports them past ±180
 * once the visitor pans around the globe), west > east when the view crosses the antimeridian, and
 * the whole width of the world when more than all of it is visible.
 */
export function serverBounds(west: number, south: number, east: number, north: number): Bounds {
  const southNorth = [clampLatitude(Math.min(south, north)), clampLatitude(Math.max(south, north))] as const;
  if (east - west >= 360) return [-180, southNorth[0], 180, southNorth[1]];
  return [wrapLongitude(west), southNorth[0], wrapLongitude(east), southNorth[1]];
}

/** Coordinates rounded to about 10 m: equal views make equal requests (and cache hits). */
export function roundBounds(bounds: Bounds): Bounds {
  return bounds.map((value) => Math.round(value * 10_000) / 10_000) as Bounds;
}

export const WORLD_BOUNDS: Bounds = [-180, -85, 180, 85];

/** The centre of an area, for storing where the map was sent. */
export function boundsCenter([west, south, east, north]: Bounds): [number, number] {
  const width = east >= west ? east - west : east + 360 - west;
  return [wrapLongitude(west + width / 2), (south + north) / 2];
}
