import type { DayRange } from '../../../shared/stats/range';

/**
 * The two analytics screens (spec §2 "Statistics (admin, creator, ads)"): a creator's tours and a
 * creator's ads. Their counts are kept under one set of names, the names the live push uses
 * (app/analytics/live.py): the calls' `shared` is read as `shares` when an answer arrives.
 */
export type AnalyticsKind = 'tours' | 'ads';

export type Metric = 'views' | 'likes' | 'saves' | 'shares' | 'follows' | 'impressions' | 'clicks';

export type Counts = Partial<Record<Metric, number>>;

export interface KindMetrics {
  /** The totals tiles, in order. */
  totals: readonly Metric[];
  /** The first chart's line (views, impressions). */
  reach: Metric;
  /** The second chart's lines (likes, saves… ; clicks). */
  activity: readonly Metric[];
  /** The table's count columns. */
  row: readonly Metric[];
}

export const KIND_METRICS: Record<AnalyticsKind, KindMetrics> = {
  tours: {
    totals: ['views', 'likes', 'saves', 'shares', 'follows'],
    reach: 'views',
    activity: ['likes', 'saves', 'shares', 'follows'],
    row: ['views', 'likes', 'saves', 'shares'],
  },
  ads: { totals: ['impressions', 'clicks'], reach: 'impressions', activity: ['clicks'], row: ['impressions', 'clicks'] },
};

/** One day of the range with its counts (every day of the range has one, zeros included). */
export interface DayPoint {
  date: string;
  counts: Counts;
}

/** One tour or ad of the table, with its counts in the range. */
export interface TableRow {
  /** The tour's or ad's guid. */
  id: string;
  title: string;
  previewPicture: string | null;
  status: string;
  counts: Counts;
}

export interface TablePage {
  rows: TableRow[];
  total: number;
  limit: number;
  offset: number;
}

/** What the screen asks about: the days of a time zone, and whose analytics (an admin may pick a creator). */
export interface RangeOfDays extends DayRange {
  timeZone: string;
  /** Admins: the creator's user account; null for the caller's own analytics. */
  userId: number | null;
}

/** Clicks per impression, as a fraction; null when nothing was shown. */
export function clickThroughRate(counts: Counts): number | null {
  const impressions = counts.impressions ?? 0;
  return impressions > 0 ? (counts.clicks ?? 0) / impressions : null;
}

/** Whether nothing at all happened in the range (all totals 0). */
export function isQuiet(totals: Counts, kind: AnalyticsKind): boolean {
  return KIND_METRICS[kind].totals.every((metric) => (totals[metric] ?? 0) === 0);
}

/** The viewer's IANA time zone: the days of the analytics are the viewer's own. */
export function viewerTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}
