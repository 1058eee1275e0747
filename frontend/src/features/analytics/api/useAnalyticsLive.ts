import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';

import { getRealtimeConnection, type RealtimeConnection } from '../../../shared/socket/realtimeConnection';
import { REALTIME_EVENTS } from '../../../shared/socket/events';
import { useRealtimeEvent } from '../../../shared/socket/useRealtime';
import { dayIsInRange, incrementsDay, mergeRows, mergeSeries, mergeTotals, parseRecent, type RecentIncrements } from '../model/liveMerge';
import type { AnalyticsKind, Counts, DayPoint, RangeOfDays, TablePage } from '../model/metrics';
import { analyticsQueryKeys } from './queryKeys';

/**
 * Adds the increments of each CREATOR_ANALYTICS push to the open range's totals, today's point and
 * the table's loaded pages, straight in the query cache: the numbers move, nothing is refetched. A
 * range that ends before today gains nothing. Other ranges loaded earlier are only marked stale, so
 * going back to one loads it afresh instead of showing counts without the new events.
 *
 * A push that lands while an answer is on its way may count an event the answer already holds (at
 * most one push interval, a second, of events): the next load of the range puts it right.
 */
export function useAnalyticsLive(kind: AnalyticsKind, range: RangeOfDays, connection: RealtimeConnection = getRealtimeConnection()): void {
  const queryClient = useQueryClient();
  // Pushes sent while the connection was down are lost: after a reconnect the screen loads afresh once.
  useEffect(
    () =>
      connection.onConnected((reconnected) => {
        if (reconnected) void queryClient.invalidateQueries({ queryKey: analyticsQueryKeys.all });
      }),
    [connection, queryClient],
  );
  useRealtimeEvent<unknown>(
    REALTIME_EVENTS.creatorAnalytics,
    (payload) => {
      // Pushes reach the owner's own room: another creator's screen (an admin's pick) gets none of its own.
      if (range.userId !== null) return;
      const recent = parseRecent(payload);
      if (recent) applyIncrements(queryClient, kind, range, recent);
    },
    connection,
  );
}

export function applyIncrements(queryClient: QueryClient, kind: AnalyticsKind, range: RangeOfDays, recent: RecentIncrements): void {
  const openRange = analyticsQueryKeys.range(kind, range);
  void queryClient.invalidateQueries({
    queryKey: analyticsQueryKeys.all,
    predicate: (query) => !openRange.every((part, index) => query.queryKey[index] === part),
    refetchType: 'none',
  });
  const day = incrementsDay(recent, range.timeZone);
  if (!dayIsInRange(day, range)) return;
  queryClient.setQueryData<Counts>(analyticsQueryKeys.totals(kind, range), (totals) => totals && mergeTotals(totals, recent, kind));
  queryClient.setQueryData<DayPoint[]>(analyticsQueryKeys.daily(kind, range), (points) => points && mergeSeries(points, recent, kind, day));
  queryClient.setQueriesData<TablePage>({ queryKey: analyticsQueryKeys.pages(kind, range) }, (page) => page && mergeRows(page, recent, kind));
}
