import { todayIn } from '../../../shared/stats/range';
import { type AnalyticsKind, type Counts, type DayPoint, KIND_METRICS, type Metric, type RangeOfDays, type TablePage } from './metrics';

/**
 * The `recent` part of a CREATOR_ANALYTICS push (app/analytics/live.py): what happened since the
 * previous push, summed per kind and per tour and ad. An open screen adds it to what it shows
 * instead of asking the server again, so the numbers move while events arrive.
 */
export interface RecentIncrements {
  /** The UTC moment of the last event counted (ISO); null in a push that counted nothing. */
  until: string | null;
  counts: Counts;
  tours: RowIncrement[];
  ads: RowIncrement[];
}

export interface RowIncrement {
  /** The tour's or ad's guid (null when the server could not name it). */
  id: string | null;
  counts: Counts;
}

const ALL_METRICS: readonly Metric[] = ['views', 'likes', 'saves', 'shares', 'follows', 'impressions', 'clicks'];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function countsOf(record: Record<string, unknown>): Counts {
  const counts: Counts = {};
  for (const metric of ALL_METRICS) {
    const value = record[metric];
    if (typeof value === 'number' && Number.isFinite(value)) counts[metric] = value;
  }
  return counts;
}

function rowIncrements(value: unknown): RowIncrement[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isRecord).map((row) => ({ id: typeof row.id === 'string' ? row.id : null, counts: countsOf(row) }));
}

/** The increments of a push, or null when it carries none (an older server, a malformed payload). */
export function parseRecent(payload: unknown): RecentIncrements | null {
  if (!isRecord(payload) || !isRecord(payload.recent)) return null;
  const recent = payload.recent;
  return {
    until: typeof recent.until === 'string' ? recent.until : null,
    counts: countsOf(recent),
    tours: rowIncrements(recent.tours),
    ads: rowIncrements(recent.ads),
  };
}

/**
 * The viewer's day the increments belong to: the day of their last event in the range's time zone
 * (a push spans at most a second or two, so a push across midnight is counted on the new day).
 */
export function incrementsDay(recent: RecentIncrements, timeZone: string, now: Date = new Date()): string {
  const until = recent.until ? new Date(recent.until) : now;
  return todayIn(timeZone, Number.isNaN(until.getTime()) ? now : until);
}

export function dayIsInRange(day: string, range: RangeOfDays): boolean {
  return range.from <= day && day <= range.to;
}

/** `base` with `added` summed in for the given metrics; the same object when nothing changes. */
export function addCounts(base: Counts, added: Counts, metrics: readonly Metric[]): Counts {
  let next: Counts | null = null;
  for (const metric of metrics) {
    const increment = added[metric] ?? 0;
    if (increment === 0) continue;
    next ??= { ...base };
    next[metric] = (base[metric] ?? 0) + increment;
  }
  return next ?? base;
}

/** The range's totals with the increments added. */
export function mergeTotals(totals: Counts, recent: RecentIncrements, kind: AnalyticsKind): Counts {
  return addCounts(totals, recent.counts, KIND_METRICS[kind].totals);
}

/** The daily series with the increments added to the point of `day` (the list is kept when it has no such day). */
export function mergeSeries(points: DayPoint[], recent: RecentIncrements, kind: AnalyticsKind, day: string): DayPoint[] {
  const { reach, activity } = KIND_METRICS[kind];
  const index = points.findIndex((point) => point.date === day);
  if (index < 0) return points;
  const point = points[index]!;
  const counts = addCounts(point.counts, recent.counts, [reach, ...activity]);
  if (counts === point.counts) return points;
  const next = points.slice();
  next[index] = { ...point, counts };
  return next;
}

/** The table's page with each row's increments added; rows keep their places (the server orders them on the next load). */
export function mergeRows(page: TablePage, recent: RecentIncrements, kind: AnalyticsKind): TablePage {
  const increments = new Map<string, Counts>();
  for (const row of kind === 'tours' ? recent.tours : recent.ads) if (row.id !== null) increments.set(row.id, row.counts);
  if (increments.size === 0) return page;
  let changed = false;
  const rows = page.rows.map((row) => {
    const added = increments.get(row.id);
    if (!added) return row;
    const counts = addCounts(row.counts, added, KIND_METRICS[kind].row);
    if (counts === row.counts) return row;
    changed = true;
    return { ...row, counts };
  });
  return changed ? { ...page, rows } : page;
}
