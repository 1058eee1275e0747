import { authSignIn, authSignUp, usersGetCurrentUser } from '../../../shared/api/generated/sdk.gen';
import type { AuthAnswer, SignInBody, SignUpBody } from '../../../shared/api/generated/types.gen';
import { storeAccessToken } from '../../../shared/auth/session';
import { removeItem, STORAGE_KEYS, writeItem, writeJson } from '../../../shared/storage/localStore';

/** The server's error body (spec §7); its message is what the user sees. */
export interface ApiError {
  message?: string;
  fields?: Record<string, string>;
  request_id?: string;
}

export function errorMessage(error: unknown, fallback: string): string {
  if (typeof error === 'object' && error !== null && 'message' in error && typeof error.message === 'string') {
    return error.message;
  }
  return fallback;
}

/** Signed in (spec §4): the guest token goes, the user's id, token and creator id are kept, the profile loaded. */
async function storeSignedIn(answer: AuthAnswer): Promise<void> {
  if (!answer.user_jwt) return;
  removeItem(STORAGE_KEYS.guestToken);
  writeItem(STORAGE_KEYS.currentUserId, String(answer.userid));
  if (answer.creatorId !== null) writeItem(STORAGE_KEYS.currentUserCreatorId, String(answer.creatorId));
  if (answer.session_id !== null && answer.session_id !== undefined) {
    writeItem(STORAGE_KEYS.sessionId, String(answer.session_id));
  }
  storeAccessToken(answer.user_jwt);
  try {
    const profile = await usersGetCurrentUser({ throwOnError: true });
    writeJson(STORAGE_KEYS.userData, profile.data);
  } catch (error) {
    // The session works without the cached profile; pages load it again when they need it.
    console.warn('Profile could not be loaded after sign-in', error);
  }
}

export async function signIn(body: SignInBody): Promise<AuthAnswer> {
  const { data } = await authSignIn({ body, throwOnError: true });
  await storeSignedIn(data);
  return data;
}

export async function signUp(body: SignUpBody): Promise<AuthAnswer> {
  const { data } = await authSignUp({ body, throwOnError: true });
  await storeSignedIn(data);
  return data;
}
