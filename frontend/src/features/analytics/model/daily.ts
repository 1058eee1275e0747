import type { DayPoint, Metric } from './metrics';

/** One metric summed over the days. */
export function metricSum(points: readonly DayPoint[], metric: Metric): number {
  return points.reduce((sum, point) => sum + (point.counts[metric] ?? 0), 0);
}

/** The day with the most of a metric, the earliest of equals; null when every day has none. */
export function busiestDay(points: readonly DayPoint[], metric: Metric): { date: string; count: number } | null {
  let best: { date: string; count: number } | null = null;
  for (const point of points) {
    const count = point.counts[metric] ?? 0;
    if (count > (best?.count ?? 0)) best = { date: point.date, count };
  }
  return best;
}
