import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';

import { RealtimeConnection, type TokenSource } from '../../../shared/socket/realtimeConnection';
import { fakeSocketFactory } from '../../../testing/fakeSocket';
import { mailingQueryKeys } from './queryKeys';
import { SYNC_SILENCE_MS, useSyncLive } from './useSyncLive';

const tokens: TokenSource = { current: () => 'admin-token', subscribe: () => () => undefined, renew: async () => null };

describe('following a sync live', () => {
  afterEach(() => vi.useRealTimers());

  it('reads a running run again only after a silence, and a run that is not running never', () => {
    vi.useFakeTimers();
    const queryClient = new QueryClient();
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries').mockResolvedValue();
    const connection = new RealtimeConnection(tokens, fakeSocketFactory().factory);
    const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
    const { rerender } = renderHook(({ running, updatedAt }) => useSyncLive(running, updatedAt, connection), {
      wrapper,
      initialProps: { running: true, updatedAt: 1 },
    });

    vi.advanceTimersByTime(SYNC_SILENCE_MS - 1);
    rerender({ running: true, updatedAt: 2 }); // a push arrived: the silence starts again
    vi.advanceTimersByTime(SYNC_SILENCE_MS - 1);
    expect(invalidate).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(invalidate).toHaveBeenCalledTimes(1);
    expect(invalidate).toHaveBeenCalledWith({ queryKey: mailingQueryKeys.syncState });

    rerender({ running: false, updatedAt: 3 });
    vi.advanceTimersByTime(SYNC_SILENCE_MS * 3);
    expect(invalidate).toHaveBeenCalledTimes(1);
  });
});
