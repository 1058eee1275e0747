import { platformGetConfig } from './generated/sdk.gen';
import { STORAGE_KEYS } from '../storage/localStore';
import { installAuthInterceptor } from './authInterceptor';

function captureAuthorization(): { header: () => string | null } {
  let seen: string | null = null;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (request: Request) => {
      seen = request.headers.get('Authorization');
      return new Response(JSON.stringify({ restrict_access: false, images_approval: false }), {
        headers: { 'Content-Type': 'application/json' },
      });
    }),
  );
  return { header: () => seen };
}

describe('the API client', () => {
  beforeAll(() => installAuthInterceptor());

  it('sends the access token when the user is signed in', async () => {
    localStorage.setItem(STORAGE_KEYS.accessToken, 'user-token');
    localStorage.setItem(STORAGE_KEYS.guestToken, 'guest-token');
    const capture = captureAuthorization();
    await platformGetConfig({ throwOnError: true });
    expect(capture.header()).toBe('Bearer user-token');
  });

  it('sends the guest token otherwise', async () => {
    localStorage.setItem(STORAGE_KEYS.guestToken, 'guest-token');
    const capture = captureAuthorization();
    await platformGetConfig({ throwOnError: true });
    expect(capture.header()).toBe('Bearer guest-token');
  });

  it('sends no Authorization header without any token', async () => {
    const capture = captureAuthorization();
    await platformGetConfig({ throwOnError: true });
    expect(capture.header()).toBeNull();
  });
});
