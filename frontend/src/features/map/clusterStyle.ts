import type { ExpressionSpecification } from 'maplibre-gl';

/** Spec §9 map clustering: radius 60 px, no clusters above zoom 18, circle sizes step at 100 and 750. */
export const CLUSTER_RADIUS = 60;
export const MAX_CLUSTER_ZOOM = 18;
export const CLUSTER_SIZE_STEPS = [100, 750] as const;

/** One value per size tier: under 100 points, 100 to 749, 750 and more. */
type Tiers<T> = readonly [T, T, T];

export const CLUSTER_RADII: Tiers<number> = [20, 27, 36];
export const CLUSTER_COLORS: Tiers<string> = ['#12ad93', '#f08c00', '#e8590c'];

/** The size tier of a cluster of `count` points. */
export function clusterTier(count: number): 0 | 1 | 2 {
  if (count >= CLUSTER_SIZE_STEPS[1]) return 2;
  if (count >= CLUSTER_SIZE_STEPS[0]) return 1;
  return 0;
}

export function clusterCircleRadius(count: number): number {
  return CLUSTER_RADII[clusterTier(count)];
}

/**
 * The property every feature carries its number of tours in: 1 for a tour, the server's count for a
 * server cluster, and, summed by MapLibre, the total of a cluster it makes of them.
 */
export const CLUSTER_COUNT_PROPERTY = 'tours';

/** A MapLibre `step` expression giving each size tier its value: the same tiers as `clusterTier`. */
export function clusterStepExpression<T extends number | string>(values: Tiers<T>): ExpressionSpecification {
  return ['step', ['get', CLUSTER_COUNT_PROPERTY], values[0], CLUSTER_SIZE_STEPS[0], values[1], CLUSTER_SIZE_STEPS[1], values[2]];
}
