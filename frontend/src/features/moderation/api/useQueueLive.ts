import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';

import { moderationQueryKeys } from '../../../shared/moderation/moderationQueryKeys';
import { REALTIME_EVENTS } from '../../../shared/socket/events';
import { getRealtimeConnection, type RealtimeConnection } from '../../../shared/socket/realtimeConnection';
import { useRealtimeEvent } from '../../../shared/socket/useRealtime';
import { isQueueEvent, mergeQueueEvent, type QueuePage } from '../model/queue';

/** Pushes that arrive together (a bulk decision, a burst of sign-ups) are answered by one refetch. */
const REFETCH_AFTER_MS = 150;

/**
 * The moderation screen follows the admins' room (MODERATION_QUEUE): a decided or withdrawn item
 * leaves the loaded pages at once (mergeQueueEvent), and the open page is asked for again shortly
 * after, which brings new submissions and the item that moves up to fill a gap. The badge's counts are
 * written by the app's realtime client (shared/socket/cacheWriters.ts).
 */
export function useQueueLive(connection: RealtimeConnection = getRealtimeConnection()): void {
  const queryClient = useQueryClient();
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current !== null) clearTimeout(timer.current);
    },
    [],
  );
  // Pushes sent while the connection was down are lost: the list is asked for again after a gap.
  useEffect(
    () =>
      connection.onConnected((reconnected) => {
        if (reconnected) void queryClient.invalidateQueries({ queryKey: moderationQueryKeys.queues });
      }),
    [connection, queryClient],
  );
  useRealtimeEvent(
    REALTIME_EVENTS.moderationQueue,
    (data: unknown) => {
      if (!isQueueEvent(data)) return;
      queryClient.setQueriesData<QueuePage>({ queryKey: moderationQueryKeys.queues }, (old) => (old ? mergeQueueEvent(old, data) : old));
      if (timer.current !== null) clearTimeout(timer.current);
      timer.current = setTimeout(() => {
        timer.current = null;
        void queryClient.invalidateQueries({ queryKey: moderationQueryKeys.queues });
      }, REFETCH_AFTER_MS);
    },
    connection,
  );
}
