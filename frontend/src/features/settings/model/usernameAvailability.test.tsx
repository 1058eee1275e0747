import { QueryClientProvider } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';

import { stubApi } from '../../../testing/apiStub';
import { createTestQueryClient } from '../../../testing/render';
import { needsAvailabilityCheck, useUsernameAvailability } from './usernameAvailability';

const CHECK = 'GET /v2/users/users-info-check';

function wrapper({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={createTestQueryClient()}>{children}</QueryClientProvider>;
}

describe('username availability', () => {
  it('asks only past 4 characters, for a well-formed name that differs from the current one', () => {
    expect(needsAvailabilityCheck('abcd', 'ada_l')).toBe(false);
    expect(needsAvailabilityCheck('abcde', 'ada_l')).toBe(true);
    expect(needsAvailabilityCheck('ada_l', 'ada_l')).toBe(false);
    expect(needsAvailabilityCheck('bad name', 'ada_l')).toBe(false);
  });

  it('does not call the server for a short or unchanged name', async () => {
    const api = stubApi({ [CHECK]: { body: { valid: true, platform_username_available: true } } });
    const short = renderHook(() => useUsernameAvailability('abcd', 'ada_l'), { wrapper });
    const same = renderHook(() => useUsernameAvailability('ada_l', 'ada_l'), { wrapper });
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(short.result.current).toEqual({ status: 'idle' });
    expect(same.result.current).toEqual({ status: 'idle' });
    expect(api.callsTo(CHECK)).toHaveLength(0);
  });

  it('reports a taken name once the typing stops', async () => {
    const api = stubApi({ [CHECK]: (call) => ({ body: { valid: true, platform_username_available: call.search.get('platform_username') !== 'taken_name' } }) });
    const taken = renderHook(() => useUsernameAvailability('taken_name', 'ada_l'), { wrapper });
    expect(taken.result.current).toEqual({ status: 'checking' });
    await waitFor(() => expect(taken.result.current).toEqual({ status: 'taken' }));
    const free = renderHook(() => useUsernameAvailability('free_name', 'ada_l'), { wrapper });
    await waitFor(() => expect(free.result.current).toEqual({ status: 'available' }));
    expect(api.callsTo(CHECK).map((call) => call.search.get('platform_username'))).toEqual(['taken_name', 'free_name']);
  });

  it('shows the server’s reason when it refuses the name', async () => {
    stubApi({ [CHECK]: { body: { valid: false, fields: { platform_username: 'Profanity is not allowed' } } } });
    const refused = renderHook(() => useUsernameAvailability('rudeword', 'ada_l'), { wrapper });
    await waitFor(() => expect(refused.result.current).toEqual({ status: 'rejected', message: 'Profanity is not allowed' }));
  });
});
