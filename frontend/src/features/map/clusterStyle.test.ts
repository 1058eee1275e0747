import { createExpression } from '@maplibre/maplibre-gl-style-spec';

import {
  CLUSTER_COLORS,
  CLUSTER_COUNT_PROPERTY,
  CLUSTER_RADII,
  CLUSTER_RADIUS,
  CLUSTER_SIZE_STEPS,
  clusterCircleRadius,
  clusterStepExpression,
  clusterTier,
  MAX_CLUSTER_ZOOM,
} from './clusterStyle';

/** Evaluate a style expression with MapLibre's own evaluator, for a cluster of `count` points. */
function evaluate(spec: unknown, count: number): unknown {
  const compiled = createExpression(spec, 'layers[0].paint.circle-radius');
  if (compiled.result !== 'success') throw new Error(JSON.stringify(compiled.value));
  return compiled.value.evaluate({ zoom: 5 }, { type: 'Point', properties: { [CLUSTER_COUNT_PROPERTY]: count } } as never);
}

describe('cluster circles', () => {
  it('keeps the spec constants: radius 60, no clusters above zoom 18, steps at 100 and 750', () => {
    expect(CLUSTER_RADIUS).toBe(60);
    expect(MAX_CLUSTER_ZOOM).toBe(18);
    expect(CLUSTER_SIZE_STEPS).toEqual([100, 750]);
  });

  it.each([
    [2, 0],
    [99, 0],
    [100, 1],
    [749, 1],
    [750, 2],
    [25_000, 2],
  ])('puts a cluster of %d points in size tier %d', (count, tier) => {
    expect(clusterTier(count)).toBe(tier);
    expect(clusterCircleRadius(count)).toBe(CLUSTER_RADII[tier]);
  });

  it('grows at each step', () => {
    expect(CLUSTER_RADII[0]).toBeLessThan(CLUSTER_RADII[1]);
    expect(CLUSTER_RADII[1]).toBeLessThan(CLUSTER_RADII[2]);
  });

  it.each([1, 99, 100, 101, 749, 750, 5_000])('draws %d points the size MapLibre computes from the layer expression', (count) => {
    expect(evaluate(clusterStepExpression(CLUSTER_RADII), count)).toBe(clusterCircleRadius(count));
  });

  it('colours each tier with its own colour', () => {
    const colour = (count: number) => String(evaluate(clusterStepExpression(CLUSTER_COLORS), count));
    expect(new Set([colour(10), colour(300), colour(900)]).size).toBe(3);
  });
});
