import { STORAGE_KEYS } from '../storage/localStore';
import { installAuthInterceptor } from './authInterceptor';
import { platformGetConfig } from './generated/sdk.gen';
import { ensureGuestId, ensureGuestToken } from './tokenRenewal';

type Answer = { status: number; body: unknown };

/** Fake server: answers in order, remembering each call's path and Authorization header. */
function fakeServer(answers: Answer[]) {
  const calls: { path: string; auth: string | null }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (request: Request) => {
      calls.push({ path: new URL(request.url, 'http://x').pathname, auth: request.headers.get('Authorization') });
      const answer = answers.shift() ?? { status: 500, body: { message: 'unexpected call' } };
      return new Response(JSON.stringify(answer.body), {
        status: answer.status,
        headers: { 'Content-Type': 'application/json' },
      });
    }),
  );
  return calls;
}

const config = { restrict_access: false, images_approval: false };
const expired = { message: 'Token expired', fields: {}, request_id: 'r1' };

describe('token renewal', () => {
  beforeAll(() => installAuthInterceptor());

  it('renews a user token with the prior token on 401 and retries once', async () => {
    localStorage.setItem(STORAGE_KEYS.accessToken, 'old-user');
    localStorage.setItem(STORAGE_KEYS.currentUserId, '7');
    const calls = fakeServer([
      { status: 401, body: expired },
      { status: 200, body: { user_jwt: 'new-user' } },
      { status: 200, body: config },
    ]);
    const result = await platformGetConfig({ throwOnError: true });
    expect(result.data).toEqual(config);
    expect(calls.map((call) => call.path)).toEqual(['/v2/config/', '/v2/users/update-token', '/v2/config/']);
    expect(calls[2]?.auth).toBe('Bearer new-user');
    expect(localStorage.getItem(STORAGE_KEYS.accessToken)).toBe('new-user');
  });

  it('gets a new guest token on 422 when signed out', async () => {
    localStorage.setItem(STORAGE_KEYS.guestToken, 'old-guest');
    const calls = fakeServer([
      { status: 422, body: expired },
      { status: 200, body: { user_jwt: 'new-guest', guest_id: 'g-1' } },
      { status: 200, body: config },
    ]);
    await platformGetConfig({ throwOnError: true });
    expect(calls[1]?.path).toBe('/v2/users/guest-token');
    expect(calls[2]?.auth).toBe('Bearer new-guest');
    expect(localStorage.getItem(STORAGE_KEYS.guestId)).toBe('g-1');
  });

  it('rejects with the body when the retry fails too, without a second renewal', async () => {
    localStorage.setItem(STORAGE_KEYS.guestToken, 'old-guest');
    const calls = fakeServer([
      { status: 401, body: expired },
      { status: 200, body: { user_jwt: 'new-guest', guest_id: 'g-1' } },
      { status: 401, body: expired },
    ]);
    await expect(platformGetConfig({ throwOnError: true })).rejects.toEqual(expired);
    expect(calls).toHaveLength(3);
  });

  it('rejects other errors with the body and no renewal', async () => {
    const body = { message: 'Nope', fields: {}, request_id: 'r2' };
    const calls = fakeServer([{ status: 409, body }]);
    await expect(platformGetConfig({ throwOnError: true })).rejects.toEqual(body);
    expect(calls).toHaveLength(1);
  });
});

describe('guest identity', () => {
  it('generates a guest id once and keeps it', () => {
    const first = ensureGuestId();
    expect(first.length).toBeGreaterThan(8);
    expect(ensureGuestId()).toBe(first);
  });

  it('fetches a guest token with the local guest id when there is no token', async () => {
    const calls = fakeServer([{ status: 200, body: { user_jwt: 'guest', guest_id: 'server-id' } }]);
    await ensureGuestToken();
    expect(calls[0]?.path).toBe('/v2/users/guest-token');
    expect(localStorage.getItem(STORAGE_KEYS.guestToken)).toBe('guest');
  });
});
