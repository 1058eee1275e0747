import { decodeTokenClaims } from '../auth/claims';
import { readItem, STORAGE_KEYS, writeItem } from '../storage/localStore';

/** The two endpoints that hand out tokens: their own failures must never trigger another renewal. */
const RENEWAL_PATHS = ['/v2/users/update-token', '/v2/users/guest-token'];
const RENEWABLE_STATUSES = new Set([401, 422]);

function generateGuestId(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return `guest-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`;
}

/** The guest id the server knows this browser by; generated locally on first use (spec §4). */
export function ensureGuestId(): string {
  const stored = readItem(STORAGE_KEYS.guestId);
  if (stored) return stored;
  const created = generateGuestId();
  writeItem(STORAGE_KEYS.guestId, created);
  return created;
}

async function postJson(path: string, body: unknown, origin: string): Promise<Record<string, unknown> | null> {
  const response = await globalThis.fetch(
    new Request(new URL(path, origin), { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }),
  );
  if (!response.ok) return null;
  const parsed: unknown = await response.json();
  return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : null;
}

async function renewUserToken(accessToken: string, userId: number, origin: string): Promise<string | null> {
  const answer = await postJson('/v2/users/update-token', { userid: userId, prior_token: accessToken }, origin);
  const token = answer?.user_jwt;
  if (typeof token !== 'string') return null;
  writeItem(STORAGE_KEYS.accessToken, token);
  return token;
}

/** Ask the server for a guest token (renewing the prior one when there is one). */
export async function renewGuestToken(origin: string = window.location.origin): Promise<string | null> {
  const answer = await postJson('/v2/users/guest-token', {
    guest_id: ensureGuestId(),
    prior_token: readItem(STORAGE_KEYS.guestToken),
  }, origin);
  const token = answer?.user_jwt;
  if (typeof token !== 'string') return null;
  writeItem(STORAGE_KEYS.guestToken, token);
  if (typeof answer?.guest_id === 'string') writeItem(STORAGE_KEYS.guestId, answer.guest_id);
  return token;
}

/** User token with the prior token when signed in, else a new guest token (spec §7). */
async function renewToken(origin: string): Promise<string | null> {
  const accessToken = readItem(STORAGE_KEYS.accessToken);
  // The stored user id, else the token's own subject (a token stored without it is still the user's).
  const userId = Number(readItem(STORAGE_KEYS.currentUserId) || (accessToken ? decodeTokenClaims(accessToken)?.sub : undefined));
  try {
    if (accessToken && Number.isInteger(userId) && userId > 0) return await renewUserToken(accessToken, userId, origin);
    return await renewGuestToken(origin);
  } catch {
    return null;
  }
}

// Many calls fail together when a token expires: they all wait for one renewal.
let pendingRenewal: Promise<string | null> | null = null;

function renewOnce(origin: string): Promise<string | null> {
  pendingRenewal ??= renewToken(origin).finally(() => {
    pendingRenewal = null;
  });
  return pendingRenewal;
}

/** Renew the bearer token now (the realtime socket's expired token): shares a renewal already under way. */
export function renewBearerToken(): Promise<string | null> {
  return renewOnce(window.location.origin);
}

/** A guest token before the first call, so that guests are known to the server from the start. */
export async function ensureGuestToken(): Promise<void> {
  if (readItem(STORAGE_KEYS.accessToken) || readItem(STORAGE_KEYS.guestToken)) return;
  await renewOnce(window.location.origin);
}

/**
 * The client's fetch: on 401 or 422, renew the token once and retry the call once with it; any other
 * answer (and the retry's answer) goes back to the client, which rejects with the error body.
 */
export async function renewingFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const request = new Request(input, init);
  const retryCopy = request.clone();
  const response = await globalThis.fetch(request);
  const url = new URL(request.url, window.location.origin);
  const isRenewalCall = RENEWAL_PATHS.includes(url.pathname);
  if (!RENEWABLE_STATUSES.has(response.status) || isRenewalCall) return response;
  const token = await renewOnce(url.origin);
  if (token === null) return response;
  retryCopy.headers.set('Authorization', `Bearer ${token}`);
  return globalThis.fetch(retryCopy);
}
