import { authSignOut } from '../api/generated/sdk.gen';
import { renewGuestToken } from '../api/tokenRenewal';
import { readItem, removeItem, STORAGE_KEYS } from '../storage/localStore';
import { clearSession } from './session';

/** Sign-out clears everything even when the server call fails (that failure is only logged, spec §8). */
export async function signOut(): Promise<void> {
  const sessionId = Number(readItem(STORAGE_KEYS.sessionId));
  try {
    await authSignOut({ body: { session_id: Number.isInteger(sessionId) && sessionId > 0 ? sessionId : null }, throwOnError: true });
  } catch (error) {
    console.warn('Sign-out failed on the server', error);
  }
  clearSession();
  removeItem(STORAGE_KEYS.userData);
  removeItem(STORAGE_KEYS.sessionId);
  // Back to being a guest: the next calls carry a fresh guest token.
  await renewGuestToken().catch(() => null);
}
