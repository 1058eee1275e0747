import type { SearchResult } from '../../shared/api/generated/types.gen';
import type { Bounds } from '../../shared/filters/filterState';
import { COORDINATES_ZOOM } from '../../shared/map/mapTarget';

/** Half the side of the area searched around a place known only by its point: about 10 km. */
const POINT_AREA_DEGREES = 0.09;

type PlaceTarget = { kind: 'bounds'; bounds: Bounds } | { kind: 'point'; center: [number, number]; zoom: number };

/**
 * What choosing a place does (spec §2): the grid is narrowed to the place's area, and the map goes
 * there: fitted to the area when the place has one, else centred on its point at zoom 14.
 */
export function placeArea(result: Pick<SearchResult, 'bbox' | 'center'>): { bounds: Bounds; target: PlaceTarget } | null {
  const [west, south, east, north] = result.bbox ?? [];
  if (west !== undefined && south !== undefined && east !== undefined && north !== undefined) {
    const bounds: Bounds = [west, south, east, north];
    return { bounds, target: { kind: 'bounds', bounds } };
  }
  const [lng, lat] = result.center ?? [];
  if (lng === undefined || lat === undefined) return null;
  const bounds: Bounds = [
    Math.max(-180, lng - POINT_AREA_DEGREES),
    Math.max(-90, lat - POINT_AREA_DEGREES),
    Math.min(180, lng + POINT_AREA_DEGREES),
    Math.min(90, lat + POINT_AREA_DEGREES),
  ];
  return { bounds, target: { kind: 'point', center: [lng, lat], zoom: COORDINATES_ZOOM } };
}
