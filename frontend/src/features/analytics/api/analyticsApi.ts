import { keepPreviousData, queryOptions } from '@tanstack/react-query';

import {
  analyticsAdsActivityByDate,
  analyticsAdsAnalytics,
  analyticsAdsAnalyticTotals,
  analyticsAdsViewsByDate,
  analyticsCreatorAnalytics,
  analyticsCreatorAnalyticTotals,
  analyticsMediaActivityByDate,
  analyticsMediaViewsByDate,
} from '../../../shared/api/generated/sdk.gen';
import type { AdAnalyticsRow, TourAnalyticsRow } from '../../../shared/api/generated/types.gen';
import type { AnalyticsKind, Counts, DayPoint, RangeOfDays, TableRow, TablePage } from '../model/metrics';
import { analyticsQueryKeys } from './queryKeys';

/** Rows per page of the table. */
export const PAGE_SIZE = 20;
/** The most rows one call gives (app/analytics/router.py MAX_LIMIT): the CSV export reads the table in pages this big. */
export const EXPORT_PAGE_SIZE = 200;

interface RangeQuery {
  date_from: string;
  date_to: string;
  time_zone: string;
  user_id?: number;
}

function rangeQuery(range: RangeOfDays): RangeQuery {
  const query: RangeQuery = { date_from: range.from, date_to: range.to, time_zone: range.timeZone };
  if (range.userId !== null) query.user_id = range.userId;
  return query;
}

/** The totals of the range (creator-analytic-totals, ads-analytic-totals). */
async function fetchTotals(kind: AnalyticsKind, range: RangeOfDays, signal?: AbortSignal): Promise<Counts> {
  const query = rangeQuery(range);
  if (kind === 'ads') {
    const { data } = await analyticsAdsAnalyticTotals({ query, signal, throwOnError: true });
    return { impressions: data.impressions, clicks: data.clicks };
  }
  const { data } = await analyticsCreatorAnalyticTotals({ query, signal, throwOnError: true });
  return { views: data.views, likes: data.likes, saves: data.saves, shares: data.shared, follows: data.follows };
}

/** Every day of the range with its reach and activity: the two by-date calls, joined by day. */
async function fetchDaily(kind: AnalyticsKind, range: RangeOfDays, signal?: AbortSignal): Promise<DayPoint[]> {
  const query = rangeQuery(range);
  if (kind === 'ads') {
    const [views, activity] = await Promise.all([
      analyticsAdsViewsByDate({ query, signal, throwOnError: true }),
      analyticsAdsActivityByDate({ query, signal, throwOnError: true }),
    ]);
    const clicks = new Map(activity.data.data.map((day) => [day.date, day.clicks]));
    return views.data.data.map((day) => ({ date: day.date, counts: { impressions: day.impressions, clicks: clicks.get(day.date) ?? 0 } }));
  }
  const [views, activity] = await Promise.all([
    analyticsMediaViewsByDate({ query, signal, throwOnError: true }),
    analyticsMediaActivityByDate({ query, signal, throwOnError: true }),
  ]);
  const byDay = new Map(activity.data.data.map((day) => [day.date, day]));
  return views.data.data.map((day) => {
    const other = byDay.get(day.date);
    return {
      date: day.date,
      counts: { views: day.views, likes: other?.likes ?? 0, saves: other?.saves ?? 0, shares: other?.shared ?? 0, follows: other?.follows ?? 0 },
    };
  });
}

function tourRow(row: TourAnalyticsRow): TableRow {
  return {
    id: row.id,
    title: row.title,
    previewPicture: row.preview_picture,
    status: row.status,
    counts: { views: row.views, likes: row.likes, saves: row.saves, shares: row.shared },
  };
}

function adRow(row: AdAnalyticsRow): TableRow {
  return { id: row.id, title: row.title, previewPicture: row.preview_picture, status: row.status, counts: { impressions: row.impressions, clicks: row.clicks } };
}

/** One page of the table (creator-analytics, ads-analytics: most viewed, most shown first). */
export async function fetchPage(kind: AnalyticsKind, range: RangeOfDays, limit: number, offset: number, signal?: AbortSignal): Promise<TablePage> {
  const query = { ...rangeQuery(range), limit, offset };
  if (kind === 'ads') {
    const { data } = await analyticsAdsAnalytics({ query, signal, throwOnError: true });
    return { rows: data.data.map(adRow), total: data.total_items, limit: data.limit, offset: data.offset };
  }
  const { data } = await analyticsCreatorAnalytics({ query, signal, throwOnError: true });
  return { rows: data.data.map(tourRow), total: data.total_items, limit: data.limit, offset: data.offset };
}

/** Every row of the table for the export, page after page. */
export async function fetchAllRows(kind: AnalyticsKind, range: RangeOfDays): Promise<TableRow[]> {
  const rows: TableRow[] = [];
  for (let offset = 0; ; offset += EXPORT_PAGE_SIZE) {
    const page = await fetchPage(kind, range, EXPORT_PAGE_SIZE, offset);
    rows.push(...page.rows);
    if (page.rows.length === 0 || rows.length >= page.total) return rows;
  }
}

// A new range keeps the last one's figures on screen (dimmed) until its own arrive; pushes keep the
// open range current, so nothing needs refetching while the screen stays open.
const SHARED = { placeholderData: keepPreviousData, staleTime: 5 * 60_000 } as const;

export function totalsQueryOptions(kind: AnalyticsKind, range: RangeOfDays) {
  return queryOptions({ queryKey: analyticsQueryKeys.totals(kind, range), queryFn: ({ signal }) => fetchTotals(kind, range, signal), ...SHARED });
}

export function dailyQueryOptions(kind: AnalyticsKind, range: RangeOfDays) {
  return queryOptions({ queryKey: analyticsQueryKeys.daily(kind, range), queryFn: ({ signal }) => fetchDaily(kind, range, signal), ...SHARED });
}

export function pageQueryOptions(kind: AnalyticsKind, range: RangeOfDays, offset: number) {
  return queryOptions({
    queryKey: analyticsQueryKeys.page(kind, range, offset),
    queryFn: ({ signal }) => fetchPage(kind, range, PAGE_SIZE, offset, signal),
    ...SHARED,
  });
}
