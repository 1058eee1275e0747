import type { FacebookApi, GoogleIdApi } from './socialProviders';

// The module remembers the scripts it loaded: each test starts from a fresh copy.
async function providers() {
  vi.resetModules();
  return import('./socialProviders');
}

/** jsdom never fetches scripts: answer the SDK's <script> as the browser would. */
async function finishScriptLoad(fragment: string, event: 'load' | 'error'): Promise<void> {
  await vi.waitFor(() => expect(document.head.querySelector(`script[src*="${fragment}"]`)).not.toBeNull(), { timeout: 2000 });
  const script = document.head.querySelector(`script[src*="${fragment}"]`);
  script?.dispatchEvent(new Event(event));
  script?.remove();
}

describe('provider SDKs', () => {
  afterEach(() => {
    delete (window as { google?: unknown }).google;
    delete (window as { FB?: unknown }).FB;
  });

  it('does not load Google without a client id', async () => {
    const { loadGoogle } = await providers();
    expect(await loadGoogle(() => undefined, '')).toBeNull();
    expect(document.head.querySelector('script[src*="gsi"]')).toBeNull();
  });

  it('initialises Google with our client id and hands its credential over', async () => {
    const { loadGoogle } = await providers();
    let callback: ((response: { credential?: string }) => void) | undefined;
    const api: GoogleIdApi = {
      initialize: vi.fn((config) => {
        callback = config.callback;
      }),
      renderButton: vi.fn(),
    };
    (window as { google?: unknown }).google = { accounts: { id: api } };
    const credentials: string[] = [];
    const loading = loadGoogle((credential) => credentials.push(credential), 'client-1.apps.googleusercontent.com');
    await finishScriptLoad('accounts.google.com/gsi/client', 'load');
    expect(await loading).toBe(api);
    expect(api.initialize).toHaveBeenCalledWith(expect.objectContaining({ client_id: 'client-1.apps.googleusercontent.com', ux_mode: 'popup' }));
    callback?.({ credential: 'google-id-token' });
    callback?.({});
    expect(credentials).toEqual(['google-id-token']);
  });

  it('reports Google as unavailable when its script cannot load', async () => {
    const { loadGoogle } = await providers();
    const loading = loadGoogle(() => undefined, 'client-2');
    await finishScriptLoad('accounts.google.com/gsi/client', 'error');
    expect(await loading).toBeNull();
  });

  it('gets the Facebook access token from its login popup, or fails with fbError', async () => {
    const { facebookAccessToken, loadFacebook } = await providers();
    const connected: FacebookApi = {
      init: vi.fn(),
      login: (done) => done({ status: 'connected', authResponse: { accessToken: 'fb-token' } }),
    };
    (window as { FB?: unknown }).FB = connected;
    const loading = loadFacebook('app-1');
    await finishScriptLoad('connect.facebook.net', 'load');
    expect(await loading).toBe(connected);
    expect(connected.init).toHaveBeenCalledWith(expect.objectContaining({ appId: 'app-1' }));
    await expect(facebookAccessToken(connected)).resolves.toBe('fb-token');

    const cancelled: FacebookApi = { init: vi.fn(), login: (done) => done({ status: 'unknown', authResponse: null }) };
    await expect(facebookAccessToken(cancelled)).rejects.toThrow('fbError');
  });
});
