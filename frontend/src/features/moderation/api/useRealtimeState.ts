import { useEffect, useState } from 'react';

import { getRealtimeConnection, type RealtimeConnection } from '../../../shared/socket/realtimeConnection';

/** Whether the tab's realtime connection is up: pushes reach the screen (its "Live" mark). */
export function useRealtimeState(connection: RealtimeConnection = getRealtimeConnection()): boolean {
  const [connected, setConnected] = useState(() => connection.connected);
  useEffect(() => {
    setConnected(connection.connected);
    const stopUp = connection.onConnected(() => setConnected(true));
    const stopDown = connection.onDisconnected(() => setConnected(false));
    return () => {
      stopUp();
      stopDown();
    };
  }, [connection]);
  return connected;
}
