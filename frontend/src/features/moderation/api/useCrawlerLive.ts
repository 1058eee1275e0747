import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';

import { REALTIME_EVENTS } from '../../../shared/socket/events';
import { getRealtimeConnection, type RealtimeConnection } from '../../../shared/socket/realtimeConnection';
import { useRealtimeEvent } from '../../../shared/socket/useRealtime';
import { applyToConfigurations, applyToSessions, isCrawlerStatusEvent } from '../model/crawler';
import { type CrawlerConfiguration, type CrawlerSession, crawlerKeys } from './crawlerApi';

/** A crawl filing tours pushes about once a second: the crawled tours are asked for again at most this often. */
const CRAWLED_REFETCH_MS = 2_000;

/**
 * The crawler tabs follow `crawler:status` (pushed to the admins' room): the counters of a session the
 * page shows are written into the cached lists at once, without a request; a session the page does not
 * know yet (started elsewhere), or a change of status (which brings start and end times), makes it ask
 * for the lists again. New tours bring the crawled tours'
 * list and count up to date (at most every two seconds while a crawl files them), and after a lost
 * connection everything is asked for again.
 */
export function useCrawlerLive(connection: RealtimeConnection = getRealtimeConnection()): void {
  const queryClient = useQueryClient();
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const lastNew = useRef(new Map<number, number>());

  useEffect(
    () => () => {
      if (timer.current !== null) clearTimeout(timer.current);
    },
    [],
  );
  useEffect(
    () =>
      connection.onConnected((reconnected) => {
        if (reconnected) void queryClient.invalidateQueries({ queryKey: crawlerKeys.all });
      }),
    [connection, queryClient],
  );

  useRealtimeEvent(
    REALTIME_EVENTS.crawlerStatus,
    (data: unknown) => {
      if (!isCrawlerStatusEvent(data)) return;
      const shown = [
        ...(queryClient.getQueryData<CrawlerSession[]>(crawlerKeys.sessions) ?? []),
        ...(queryClient.getQueryData<CrawlerConfiguration[]>(crawlerKeys.configurations) ?? []).flatMap((configuration) => configuration.last_session ?? []),
      ].filter((session) => session.session_id === data.session_id);
      // A new status brings times the push does not carry (started, ended): the lists are asked for once.
      let askAgain = shown.some((session) => session.status !== data.status);
      queryClient.setQueryData<CrawlerSession[]>(crawlerKeys.sessions, (old) => {
        if (!old) return old;
        const next = applyToSessions(old, data);
        if (next === null) askAgain = true;
        return next ?? old;
      });
      queryClient.setQueryData<CrawlerConfiguration[]>(crawlerKeys.configurations, (old) => {
        if (!old) return old;
        const next = applyToConfigurations(old, data);
        if (next === null) askAgain = true;
        return next ?? old;
      });
      if (askAgain) {
        void queryClient.invalidateQueries({ queryKey: crawlerKeys.sessions });
        void queryClient.invalidateQueries({ queryKey: crawlerKeys.configurations });
      }
      const before = lastNew.current.get(data.session_id);
      lastNew.current.set(data.session_id, data.new_tours);
      if (data.new_tours > 0 && data.new_tours !== before && timer.current === null) {
        timer.current = setTimeout(() => {
          timer.current = null;
          void queryClient.invalidateQueries({ queryKey: crawlerKeys.crawled });
        }, CRAWLED_REFETCH_MS);
      }
    },
    connection,
  );
}
