import { readItem, removeItem, STORAGE_KEYS, storedValue, writeItem } from '../storage/localStore';
import { decodeTokenClaims, roleFromClaims, type TokenClaims, type UserRole } from './claims';

export interface Session {
  signedIn: boolean;
  role: UserRole;
  claims: TokenClaims | null;
  creatorId: number | null;
}

const SIGNED_OUT: Session = { signedIn: false, role: 'guest', claims: null, creatorId: null };

export function getAccessToken(): string | null {
  return readItem(STORAGE_KEYS.accessToken);
}

/** The bearer token for API calls: the user's access token, else the guest token (spec §7). */
export function getBearerToken(): string | null {
  return getAccessToken() ?? readItem(STORAGE_KEYS.guestToken);
}

export function isSignedIn(): boolean {
  return getAccessToken() !== null;
}

export function storeAccessToken(token: string): void {
  writeItem(STORAGE_KEYS.accessToken, token);
}

/** Sign-out clears every token and the user (spec §4); the server call is made by the auth feature. */
export function clearSession(): void {
  [
    STORAGE_KEYS.accessToken,
    STORAGE_KEYS.guestToken,
    STORAGE_KEYS.currentUserId,
    STORAGE_KEYS.currentUserCreatorId,
  ].forEach(removeItem);
}

function sessionFromToken(token: string | null): Session {
  if (token === null) return SIGNED_OUT;
  const claims = decodeTokenClaims(token);
  // A token we cannot read still means signed in: the server decides what it is worth.
  const role = claims === null ? 'user' : roleFromClaims(claims);
  return { signedIn: true, role, claims, creatorId: claims?.creator_id ?? null };
}

const session = storedValue(STORAGE_KEYS.accessToken, sessionFromToken);

export function useSession(): Session {
  return session.useStore();
}
