import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';

import type { SyncStateOut } from '../../../shared/api/generated/types.gen';
import { REALTIME_EVENTS } from '../../../shared/socket/events';
import { getRealtimeConnection, type RealtimeConnection } from '../../../shared/socket/realtimeConnection';
import { useRealtimeEvent } from '../../../shared/socket/useRealtime';
import { isSyncRun } from '../model/syncRun';
import { mailingQueryKeys } from './queryKeys';

/**
 * A run shown as running that has heard nothing for this long is read once (and again after as long):
 * its worker may be lost, which no push tells, or pushes may not get through. Runs that push never
 * get here.
 */
export const SYNC_SILENCE_MS = 30_000;

/**
 * The sync's progress as the server pushes it (`mailing:sync` to the admins' room), written into the
 * members-sync query: the bar moves without asking. Pushes sent while the page was not connected are
 * lost, so each (re)connection reads the run once; so does a running run that went silent.
 *
 * `running` and `updatedAt` are the shown run's state and when the query last changed (a push or a read).
 */
export function useSyncLive(running: boolean, updatedAt: number, connection: RealtimeConnection = getRealtimeConnection()): void {
  const queryClient = useQueryClient();
  useEffect(
    () => connection.onConnected(() => void queryClient.invalidateQueries({ queryKey: mailingQueryKeys.syncState })),
    [connection, queryClient],
  );
  useRealtimeEvent<unknown>(
    REALTIME_EVENTS.mailingSync,
    (data) => {
      if (isSyncRun(data)) queryClient.setQueryData<SyncStateOut>(mailingQueryKeys.syncState, { data });
    },
    connection,
  );
  useEffect(() => {
    if (!running) return undefined;
    const timer = setTimeout(() => void queryClient.invalidateQueries({ queryKey: mailingQueryKeys.syncState }), SYNC_SILENCE_MS);
    return () => clearTimeout(timer);
  }, [running, updatedAt, queryClient]);
}
