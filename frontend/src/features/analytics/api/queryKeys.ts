import type { AnalyticsKind, RangeOfDays } from '../model/metrics';

/** react-query keys of the creators' analytics: per screen, per creator, per range of days in a time zone. */
export const analyticsQueryKeys = {
  all: ['creator-analytics'] as const,
  /** Everything one screen loaded for one range: the live push updates these in place. */
  range: (kind: AnalyticsKind, range: RangeOfDays) => ['creator-analytics', kind, range.userId ?? 'own', range.from, range.to, range.timeZone] as const,
  totals: (kind: AnalyticsKind, range: RangeOfDays) => [...analyticsQueryKeys.range(kind, range), 'totals'] as const,
  daily: (kind: AnalyticsKind, range: RangeOfDays) => [...analyticsQueryKeys.range(kind, range), 'daily'] as const,
  pages: (kind: AnalyticsKind, range: RangeOfDays) => [...analyticsQueryKeys.range(kind, range), 'page'] as const,
  page: (kind: AnalyticsKind, range: RangeOfDays, offset: number) => [...analyticsQueryKeys.pages(kind, range), offset] as const,
};
