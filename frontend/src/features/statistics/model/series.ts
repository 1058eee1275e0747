import type { DailySeries } from '../../../shared/api/generated/types.gen';
import type { DayRange } from '../../../shared/stats/range';

/** The five admin-stats calls, in the order the page shows them. */
export const DOMAINS = ['users', 'tours', 'creators', 'vendors', 'ads'] as const;
export type Domain = (typeof DOMAINS)[number];

/** What the page needs of one admin-stats answer. */
export interface DomainStats {
  domain: Domain;
  /** Created within the range (the daily series' total). */
  inRange: number;
  /** Everything there is now (the call's `total`), whatever the range. */
  allTime: number;
  range: DayRange;
  series: { date: string; count: number }[];
}

export function domainStats(domain: Domain, allTime: number, daily: DailySeries): DomainStats {
  return {
    domain,
    inRange: daily.total,
    allTime,
    range: { from: daily.date_from, to: daily.date_to },
    series: daily.series.map((point) => ({ date: point.date, count: point.count })),
  };
}

/** Nothing at all was created in the range, in any domain. */
export function allZero(stats: readonly DomainStats[]): boolean {
  return stats.length > 0 && stats.every((item) => item.inRange === 0);
}

/** The day with the most, the earliest of equals; null when every day is 0. */
export function busiestDay(stats: DomainStats): { date: string; count: number } | null {
  let best: { date: string; count: number } | null = null;
  for (const point of stats.series) if (point.count > (best?.count ?? 0)) best = point;
  return best;
}

export interface ChartPoint {
  /** The day as the chart's axis and tooltip show it, in the reader's language. */
  day: string;
  date: string;
  count: number;
}

/** A series as the chart draws it: each day labelled for the reader. */
export function chartPoints(stats: DomainStats, label: (isoDate: string) => string): ChartPoint[] {
  return stats.series.map((point) => ({ day: label(point.date), date: point.date, count: point.count }));
}
