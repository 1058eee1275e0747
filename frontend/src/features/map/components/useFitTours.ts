import { useEffect, useRef } from 'react';

import type { MapFeature } from '../../../shared/api/generated/types.gen';
import { requestMapTarget } from '../../../shared/map/mapTarget';

/** A creator's map opens on their tours: fitted around them once they are known (once per `key`). */
export function useFitTours(key: string | undefined, features: readonly MapFeature[] | undefined): void {
  const fitted = useRef<string | null>(null);
  useEffect(() => {
    if (!key || !features || features.length === 0 || fitted.current === key) return;
    fitted.current = key;
    const longitudes = features.map((feature) => feature.geometry.coordinates[0]);
    const latitudes = features.map((feature) => feature.geometry.coordinates[1]);
    const [west, east] = [Math.min(...longitudes), Math.max(...longitudes)];
    const [south, north] = [Math.min(...latitudes), Math.max(...latitudes)];
    if (west === east && south === north) requestMapTarget({ kind: 'point', center: [west, south] });
    else requestMapTarget({ kind: 'bounds', bounds: [west, south, east, north] });
  }, [key, features]);
}
