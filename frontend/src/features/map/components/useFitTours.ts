import { useEffect, useRef } from 'react';

import type { MapFeature } from '../../../shared/api/generated/types.gen';
import type { Bounds } from '../../../shared/filters/filterState';
import { requestMapTarget } from '../../../shared/map/mapTarget';

/** The box around the tours (west, south, east, north; zero-sized for one spot), or null for none. */
export function toursBounds(features: readonly MapFeature[] | undefined): Bounds | null {
  if (!features || features.length === 0) return null;
  const longitudes = features.map((feature) => feature.geometry.coordinates[0]);
  const latitudes = features.map((feature) => feature.geometry.coordinates[1]);
  return [Math.min(...longitudes), Math.min(...latitudes), Math.max(...longitudes), Math.max(...latitudes)];
}

/**
 * The creator-scoped map page (`/{creatorName}/map`) opens on the creator's tours: fitted around them
 * once they are known (once per `key`), through the map page's shared target.
 */
export function useFitTours(key: string | undefined, features: readonly MapFeature[] | undefined): void {
  const fitted = useRef<string | null>(null);
  useEffect(() => {
    const bounds = toursBounds(features);
    if (!key || !bounds || fitted.current === key) return;
    fitted.current = key;
    const [west, south, east, north] = bounds;
    if (west === east && south === north) requestMapTarget({ kind: 'point', center: [west, south] });
    else requestMapTarget({ kind: 'bounds', bounds });
  }, [key, features]);
}
