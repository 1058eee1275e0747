import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';

import { moderationQueryKeys } from '../moderation/moderationQueryKeys';
import { platformQueryKeys } from '../platform/platformQueryKeys';
import { tourCountersKey } from '../tours/tourQueryKeys';
import { writeEventToCache } from './cacheWriters';
import { getRealtimeConnection, type RealtimeConnection } from './realtimeConnection';

/**
 * Runs the tab's realtime connection while mounted (once, at the app's root): pushed events go into
 * the react-query cache. After a reconnect the few queries that may have missed a push while the
 * connection was down (the version, the moderation counts, the counters of the tours whose pages are
 * open) are refreshed once; cards keep their counters until the next push or the next page load.
 * `<html data-realtime="connected|disconnected">` tells the state and `data-realtime-rooms` the rooms
 * the server confirmed (end-to-end tests wait for them).
 */
export function useRealtimeConnection(connection: RealtimeConnection = getRealtimeConnection()): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    const stopWriting = connection.onEvent((event, data) => writeEventToCache(queryClient, event, data));
    const stopRefreshing = connection.onConnected((reconnected) => {
      showState('connected');
      if (reconnected) refreshAfterGap(queryClient, connection.serverRooms());
    });
    const stopShowingLoss = connection.onDisconnected(() => showState('disconnected'));
    const stopShowingRooms = connection.onRoomsChanged(showRooms);
    connection.start();
    return () => {
      stopWriting();
      stopRefreshing();
      stopShowingLoss();
      stopShowingRooms();
      connection.stop();
      showState('disconnected');
      showRooms([]);
    };
  }, [connection, queryClient]);
}

function showState(state: 'connected' | 'disconnected'): void {
  document.documentElement.dataset.realtime = state;
}

/** The rooms the server confirmed, space-separated: pushes to them reach this tab from now on. */
function showRooms(rooms: string[]): void {
  document.documentElement.dataset.realtimeRooms = rooms.join(' ');
}

function refreshAfterGap(queryClient: QueryClient, rooms: string[]): void {
  void queryClient.invalidateQueries({ queryKey: platformQueryKeys.appVersion });
  void queryClient.invalidateQueries({ queryKey: moderationQueryKeys.pendingCounts });
  for (const room of rooms) {
    if (room.startsWith('tour:')) void queryClient.invalidateQueries({ queryKey: tourCountersKey(room.slice('tour:'.length)) });
  }
}

/** Be in a room (`tourRoom(guid)`, `creatorRoom(id)`) while the calling component is mounted. */
export function useRoom(room: string | null | undefined, connection: RealtimeConnection = getRealtimeConnection()): void {
  useEffect(() => {
    if (!room) return undefined;
    return connection.join(room);
  }, [room, connection]);
}

/** Hear one pushed event (notifications, crawler status, trial end…) while mounted. */
export function useRealtimeEvent<T = unknown>(
  eventName: string,
  handler: (data: T) => void,
  connection: RealtimeConnection = getRealtimeConnection(),
): void {
  const latest = useRef(handler);
  useEffect(() => {
    latest.current = handler;
  });
  useEffect(
    () =>
      connection.onEvent((event, data) => {
        if (event === eventName) latest.current(data as T);
      }),
    [eventName, connection],
  );
}
