import { stubApi } from '../../../testing/apiStub';
import { testUser } from '../../../testing/users';
import { accountValues, changedParams, saveAccount } from './accountSave';

const USER = testUser();

const PUT = 'PUT /v2/users/user-params';

describe('account save', () => {
  it('sends only what changed, never the email of a social account', () => {
    const values = { ...accountValues(USER), first_name: ' Augusta ', email: 'new@example.com', phone: '12345' };
    expect(changedParams(USER, values)).toEqual({ first_name: 'Augusta', email: 'new@example.com', phone: '12345' });
    expect(changedParams({ ...USER, auth_system: 'google' }, values)).toEqual({ first_name: 'Augusta', phone: '12345' });
    expect(changedParams(USER, accountValues(USER))).toEqual({});
  });

  it('reads 200 as saved and 201 as waiting for approval', async () => {
    const api = stubApi({ [PUT]: { status: 200, body: { message: 'saved', data: { ...USER, first_name: 'Augusta' }, pending_fields: [] } } });
    expect(await saveAccount(7, { first_name: 'Augusta' })).toEqual({ kind: 'saved', user: { ...USER, first_name: 'Augusta' } });
    expect(api.callsTo(PUT)[0]?.body).toEqual({ userid: 7, params: { first_name: 'Augusta' } });

    stubApi({ [PUT]: { status: 201, body: { message: 'pending', data: USER, pending_fields: ['platform_username'] } } });
    expect(await saveAccount(7, { platform_username: 'augusta' })).toEqual({ kind: 'pending', user: USER, pendingFields: ['platform_username'] });
  });

  it('shows the server message on 409 and a saving error for anything else', async () => {
    stubApi({ [PUT]: { status: 409, body: { message: 'This username is already taken' } } });
    expect(await saveAccount(7, { platform_username: 'taken' })).toEqual({ kind: 'conflict', message: 'This username is already taken' });

    stubApi({ [PUT]: { status: 400, body: { message: 'Invalid field', fields: { phone: 'Digits only' } } } });
    expect(await saveAccount(7, { phone: 'x' })).toEqual({ kind: 'failed', fields: { phone: 'Digits only' } });

    stubApi({ [PUT]: { status: 500, body: { message: 'Something went wrong' } } });
    expect(await saveAccount(7, { phone: '1' })).toEqual({ kind: 'failed', fields: {} });
  });
});
