/**
 * The providers' browser SDKs: Google Identity Services (an ID token, "credential") and the Facebook
 * JavaScript SDK (a user access token). Each is switched on by its build-time id; the server checks
 * the token against the same id (GOOGLE_CLIENT_ID, FACEBOOK_APP_ID in .env).
 */
export const GOOGLE_CLIENT_ID: string = import.meta.env.VITE_GOOGLE_CLIENT_ID ?? '';
export const FACEBOOK_APP_ID: string = import.meta.env.VITE_FACEBOOK_APP_ID ?? '';

const GOOGLE_SCRIPT = 'https://accounts.google.com/gsi/client';
const FACEBOOK_SCRIPT = 'https://connect.facebook.net/en_US/sdk.js';
const FACEBOOK_API_VERSION = 'v19.0';
// Spec §9: the Google script is loaded with a 500 ms delay so it never competes with the first paint.
export const GOOGLE_LOAD_DELAY_MS = 500;

export interface GoogleCredentialResponse {
  credential?: string;
}

export interface GoogleButtonOptions {
  type: 'standard';
  theme: 'outline';
  size: 'large';
  shape: 'pill';
  text: 'continue_with';
  width: number;
  locale: string;
}

export interface GoogleIdApi {
  initialize(config: { client_id: string; callback: (response: GoogleCredentialResponse) => void; ux_mode: 'popup' }): void;
  renderButton(parent: HTMLElement, options: GoogleButtonOptions): void;
}

export interface FacebookLoginResponse {
  status: string;
  authResponse?: { accessToken?: string } | null;
}

export interface FacebookApi {
  init(options: { appId: string; version: string; cookie: boolean; xfbml: boolean }): void;
  login(callback: (response: FacebookLoginResponse) => void, options: { scope: string }): void;
}

interface ProviderWindow {
  google?: { accounts?: { id?: GoogleIdApi } };
  FB?: FacebookApi;
}

const loading = new Map<string, Promise<boolean>>();

/** Load a provider script once; resolves false when it cannot load (offline, blocked). */
function loadScript(src: string, delayMs: number): Promise<boolean> {
  let pending = loading.get(src);
  if (!pending) {
    pending = new Promise<boolean>((resolve) => {
      window.setTimeout(() => {
        const script = document.createElement('script');
        script.src = src;
        script.async = true;
        script.onload = () => resolve(true);
        script.onerror = () => {
          loading.delete(src); // a later attempt may find the network back
          resolve(false);
        };
        document.head.appendChild(script);
      }, delayMs);
    });
    loading.set(src, pending);
  }
  return pending;
}

const providerWindow = () => window as unknown as ProviderWindow;

/** Google's sign-in API, initialised with our client id and `onCredential`; null when off or unreachable. */
export async function loadGoogle(
  onCredential: (credential: string) => void,
  clientId: string = GOOGLE_CLIENT_ID,
): Promise<GoogleIdApi | null> {
  if (!clientId) return null;
  const loaded = await loadScript(GOOGLE_SCRIPT, GOOGLE_LOAD_DELAY_MS);
  const api = loaded ? providerWindow().google?.accounts?.id : undefined;
  if (!api) return null;
  api.initialize({
    client_id: clientId,
    ux_mode: 'popup',
    callback: (response) => {
      if (response.credential) onCredential(response.credential);
    },
  });
  return api;
}

let facebookReady: FacebookApi | null = null;

/** Facebook's SDK, initialised with our app id; null when off or unreachable. */
export async function loadFacebook(appId: string = FACEBOOK_APP_ID): Promise<FacebookApi | null> {
  if (!appId) return null;
  if (facebookReady) return facebookReady;
  const api = (await loadScript(FACEBOOK_SCRIPT, 0)) ? providerWindow().FB : undefined;
  if (!api) return null;
  api.init({ appId, version: FACEBOOK_API_VERSION, cookie: false, xfbml: false });
  facebookReady = api;
  return api;
}

/** Facebook's login popup; resolves the user access token, rejects when the user cancels or it fails. */
export function facebookAccessToken(api: FacebookApi): Promise<string> {
  return new Promise((resolve, reject) => {
    api.login(
      (response) => {
        const token = response.authResponse?.accessToken;
        if (response.status === 'connected' && token) resolve(token);
        else reject(new Error('fbError'));
      },
      { scope: 'public_profile,email' },
    );
  });
}
