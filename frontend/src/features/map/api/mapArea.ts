import { keepPreviousData, queryOptions } from '@tanstack/react-query';

import { discoveryFilteredMap } from '../../../shared/api/generated/sdk.gen';
import type { DiscoveryFilteredMapData, MapAreaAnswer, MapFeature } from '../../../shared/api/generated/types.gen';
import { type Bounds, type FilterState, toGridQuery } from '../../../shared/filters/filterState';
import { WORLD_BOUNDS } from '../mapBounds';
import { mapQueryKeys } from './queryKeys';

type MapQuery = NonNullable<DiscoveryFilteredMapData['query']>;

/** What the map shows: the visible area and the zoom (the server clusters by zoom). */
export interface MapViewport {
  bounds: Bounds;
  zoom: number;
}

/** The server's highest zoom: every tour is its own point there, except tours sharing one spot. */
const POINTS_ZOOM = 24;

/**
 * The filter state as the map asks for it: the visible area replaces a searched place's bounds, and
 * what only orders or pages a grid (sorting, mode, Near Me position) is left out, so moving those
 * controls does not reload the map.
 */
export function toMapQuery(filters: FilterState, bounds: Bounds, zoom: number): MapQuery {
  const { sorting: _sorting, mode: _mode, lat: _lat, lng: _lng, ...query } = toGridQuery(filters);
  const [leftX, leftY, rightX, rightY] = bounds;
  return { ...query, leftX, leftY, rightX, rightY, zoom: Math.round(zoom * 100) / 100 };
}

async function fetchMapArea(query: MapQuery, signal: AbortSignal): Promise<MapAreaAnswer> {
  return (await discoveryFilteredMap({ query, signal, throwOnError: true })).data;
}

/** Every tour in a small area, unclustered: the list view of a spot (spec §2 "above zoom 18 the list view"). */
export function spotQueryOptions(filters: FilterState, bounds: Bounds | null, language: string) {
  const query = bounds ? toMapQuery(filters, bounds, POINTS_ZOOM) : null;
  return queryOptions({
    queryKey: mapQueryKeys.spot(query, language),
    queryFn: async ({ signal }) => (await fetchMapArea(query as MapQuery, signal)).features,
    enabled: query !== null,
    staleTime: 60_000,
  });
}

/**
 * One creator's tours for the creator-scoped map (spec §2 `/{creatorName}/map`): the map call
 * filtered by the creator (`userid`), every point at once; MapLibre then clusters them on the client
 * with the same radius and zoom limit.
 */
export function creatorPointsQueryOptions(filters: FilterState, userId: number | null, language: string) {
  const query: MapQuery = { ...toMapQuery(filters, WORLD_BOUNDS, POINTS_ZOOM), userid: userId };
  return queryOptions({
    queryKey: mapQueryKeys.creatorPoints(userId, query, language),
    queryFn: async ({ signal }): Promise<MapFeature[]> => (await fetchMapArea(query, signal)).features,
    enabled: userId !== null,
    placeholderData: keepPreviousData,
    staleTime: 5 * 60_000,
  });
}
