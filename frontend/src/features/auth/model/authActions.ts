import { authSignIn, authSignUp, authSignUpOneClick, usersGetCurrentUser } from '../../../shared/api/generated/sdk.gen';
import type { AuthAnswer, SignInBody, SignUpBody } from '../../../shared/api/generated/types.gen';
import { storeAccessToken } from '../../../shared/auth/session';
import { readItem, removeItem, STORAGE_KEYS, writeItem, writeJson } from '../../../shared/storage/localStore';

export type SocialProvider = 'google' | 'facebook';

/**
 * Signed in (spec §4): the guest token goes, the user's id, token and creator id are kept, the profile
 * loaded. The session and its 'Sign in' activity are recorded by the server inside the sign-in call
 * (one transaction, nothing to lose on a flaky network); its id comes back here and is kept for
 * sign-out, which ends that session and records 'Sign out'.
 */
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

/** Sign-up sends the guest token too (spec §3 payload), so the guest's history becomes the user's. */
export async function signUp(body: SignUpBody): Promise<AuthAnswer> {
  const { data } = await authSignUp({ body: { token: readItem(STORAGE_KEYS.guestToken), ...body }, throwOnError: true });
  await storeSignedIn(data);
  return data;
}

/**
 * "Continue with Google / Facebook": the provider's token (Google's ID token, Facebook's access token)
 * goes to sign-in; when no account is linked to that identity yet (404), one-click sign-up creates it
 * with the provider's name and email. The server verifies the token either way.
 */
export interface ProviderSignIn {
  answer: AuthAnswer;
  /** True when this sign-in created the account (a new identity). */
  created: boolean;
}

export async function continueWithProvider(provider: SocialProvider, providerToken: string): Promise<ProviderSignIn> {
  const signedIn = await authSignIn({ body: { auth_system: provider, provider_token: providerToken } });
  if (signedIn.data) {
    await storeSignedIn(signedIn.data);
    return { answer: signedIn.data, created: false };
  }
  if (signedIn.response?.status !== 404) throw signedIn.error ?? new Error('Sign-in failed');
  const signedUp = await authSignUpOneClick({
    body: { auth_system: provider, provider_token: providerToken, token: readItem(STORAGE_KEYS.guestToken) },
    throwOnError: true,
  });
  await storeSignedIn(signedUp.data);
  // 200: the identity had an account after all (created meanwhile); 201 and 207: a new account.
  return { answer: signedUp.data, created: signedUp.response.status !== 200 };
}
