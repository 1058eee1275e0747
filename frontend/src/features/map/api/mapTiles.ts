import type { DiscoveryMapTileData } from '../../../shared/api/generated/types.gen';
import { type FilterState, toGridQuery } from '../../../shared/filters/filterState';

type TileQuery = NonNullable<DiscoveryMapTileData['query']>;

/** The tours' vector tiles (GET /v2/locations/tiles/{z}/{x}/{y}.mvt). */
const TOUR_TILES_PATH = '/v2/locations/tiles/{z}/{x}/{y}.mvt';

/**
 * The filter state as the tiles take it: the feed's filters, as for filtered-map, without what only
 * orders or pages a grid (sorting, mode, Near Me position) and without a searched place's bounds —
 * the tile is the area. So every visitor with the same filters asks for the same tiles, and a cache
 * between them can answer.
 */
export function toTileQuery(filters: FilterState): TileQuery {
  const {
    sorting: _sorting,
    mode: _mode,
    lat: _lat,
    lng: _lng,
    leftX: _leftX,
    leftY: _leftY,
    rightX: _rightX,
    rightY: _rightY,
    ...query
  } = toGridQuery(filters);
  return query;
}

/** The tiles' address template for MapLibre: absolute, with the filters in a stable order. */
export function tourTilesUrl(filters: FilterState, origin: string = window.location.origin): string {
  const parameters = new URLSearchParams();
  const entries = Object.entries(toTileQuery(filters)).filter(([, value]) => value !== undefined && value !== null && value !== '');
  for (const [key, value] of entries.sort(([a], [b]) => a.localeCompare(b))) parameters.set(key, String(value));
  const search = parameters.toString();
  // MapLibre fills {z}/{x}/{y} itself: keep the braces as they are.
  return `${origin}${TOUR_TILES_PATH}${search ? `?${search}` : ''}`;
}

/** Whether the visitor's own lists shape the tiles (Saves & Follows, For You): then they carry the token. */
export function tilesArePersonal(filters: FilterState): boolean {
  return filters.savesFollow || filters.feed === 'saves_follows' || filters.feed === 'for_you';
}

/** Whether a request MapLibre is about to make is one of the tours' tiles. */
export function isTourTileUrl(url: string, origin: string = window.location.origin): boolean {
  return url.startsWith(`${origin}/v2/locations/tiles/`);
}
