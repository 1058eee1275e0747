import { signOut } from '../../../shared/auth/signOut';
import { STORAGE_KEYS } from '../../../shared/storage/localStore';
import { stubApi } from '../../../testing/apiStub';
import { testAccessToken, testUser } from '../../../testing/users';
import { continueWithProvider, signIn, signUp } from './authActions';

const TOKEN = testAccessToken({ sub: '7' });
const ANSWER = { message: 'Signed in', userid: 7, user_jwt: TOKEN, creatorId: null, is_admin: false, roles: [], session_id: 41 };
const PROFILE = { 'GET /v2/users/': { body: testUser() } };

describe('signing in', () => {
  it('keeps the user, the token and the session the server opened, and drops the guest token', async () => {
    localStorage.setItem(STORAGE_KEYS.guestToken, 'guest');
    stubApi({ 'POST /v2/users/sign-in': { body: ANSWER }, ...PROFILE });
    await signIn({ auth_system: 'email', email: 'ada@example.com', password: 'Secret1!' });
    expect(localStorage.getItem(STORAGE_KEYS.accessToken)).toBe(TOKEN);
    expect(localStorage.getItem(STORAGE_KEYS.currentUserId)).toBe('7');
    expect(localStorage.getItem(STORAGE_KEYS.sessionId)).toBe('41');
    expect(localStorage.getItem(STORAGE_KEYS.guestToken)).toBeNull();
    expect(JSON.parse(localStorage.getItem(STORAGE_KEYS.userData) ?? '{}').platform_username).toBe('ada_l');
  });

  it('sends the guest token with a sign-up, so the guest history is kept', async () => {
    localStorage.setItem(STORAGE_KEYS.guestToken, 'guest-jwt');
    const api = stubApi({ 'POST /v2/users/sign-up': { status: 201, body: { ...ANSWER, message: 'Account created' } }, ...PROFILE });
    await signUp({ auth_system: 'email', email: 'ada@example.com' });
    expect(api.callsTo('POST /v2/users/sign-up')[0]?.body).toMatchObject({ token: 'guest-jwt', email: 'ada@example.com' });
  });

  it('ends the session it opened on sign-out, and signs out locally even when the server fails', async () => {
    localStorage.setItem(STORAGE_KEYS.accessToken, TOKEN);
    localStorage.setItem(STORAGE_KEYS.sessionId, '41');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const api = stubApi({ 'POST /v2/users/sign-out': { status: 500, body: { message: 'down' } }, 'POST /v2/users/guest-token': { body: { user_jwt: 'g', guest_id: 'x' } } });
    await signOut();
    expect(api.callsTo('POST /v2/users/sign-out')[0]?.body).toEqual({ session_id: 41 });
    expect(warn).toHaveBeenCalled();
    expect(localStorage.getItem(STORAGE_KEYS.accessToken)).toBeNull();
    expect(localStorage.getItem(STORAGE_KEYS.sessionId)).toBeNull();
  });
});

describe('continuing with Google or Facebook', () => {
  it('signs in with the provider token when the identity has an account', async () => {
    const api = stubApi({ 'POST /v2/users/sign-in': { body: ANSWER }, ...PROFILE });
    expect(await continueWithProvider('google', 'google-id-token')).toMatchObject({ created: false });
    expect(api.callsTo('POST /v2/users/sign-in')[0]?.body).toEqual({ auth_system: 'google', provider_token: 'google-id-token' });
    expect(api.callsTo('POST /v2/users/signup-oneclick')).toHaveLength(0);
    expect(localStorage.getItem(STORAGE_KEYS.accessToken)).toBe(TOKEN);
  });

  it('creates the account in one click when no account is linked yet', async () => {
    localStorage.setItem(STORAGE_KEYS.guestToken, 'guest-jwt');
    const api = stubApi({
      'POST /v2/users/sign-in': { status: 404, body: { message: 'No account is linked to this sign-in. Please sign up first.' } },
      'POST /v2/users/signup-oneclick': { status: 201, body: { ...ANSWER, message: 'Account created' } },
      ...PROFILE,
    });
    expect(await continueWithProvider('facebook', 'fb-access-token')).toMatchObject({ created: true });
    expect(api.callsTo('POST /v2/users/signup-oneclick')[0]?.body).toEqual({
      auth_system: 'facebook',
      provider_token: 'fb-access-token',
      token: 'guest-jwt',
    });
    expect(localStorage.getItem(STORAGE_KEYS.accessToken)).toBe(TOKEN);
  });

  it('passes any other refusal on with the server message', async () => {
    stubApi({ 'POST /v2/users/sign-in': { status: 400, body: { message: 'fbError' } } });
    await expect(continueWithProvider('facebook', 'bad')).rejects.toMatchObject({ message: 'fbError' });
    expect(localStorage.getItem(STORAGE_KEYS.accessToken)).toBeNull();
  });
});
