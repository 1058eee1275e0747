import { looksLikeModelKey, tokenSaveOutcome, validateToken } from './vendorTokens';

const CREDENTIAL = {
  id: 1,
  userid: 7,
  vendor: { id: 1, name: 'Matterport' },
  key: '••••1234',
  secret: '••••abcd',
  created_at: '2026-01-01T00:00:00Z',
  checked_at: '2026-01-01T00:00:00Z',
};

describe('vendor API tokens', () => {
  it('checks the token id and secret before asking the vendor', () => {
    expect(validateToken('', 'key')).toBe('settings.vendors.errors.keyRequired');
    expect(validateToken('  ', 'secret')).toBe('settings.vendors.errors.secretRequired');
    expect(validateToken('abc def', 'key')).toBe('settings.vendors.errors.noSpaces');
    expect(validateToken('x'.repeat(201), 'key')).toBe('settings.vendors.errors.tooLong');
    expect(validateToken(' abcdef123456 ', 'key')).toBeNull();
  });

  it('reads the answers of POST credentials', () => {
    expect(tokenSaveOutcome(200, { message: 'Your Matterport account is connected', data: CREDENTIAL })).toEqual({
      kind: 'saved',
      credential: CREDENTIAL,
      message: 'Your Matterport account is connected',
    });
    expect(tokenSaveOutcome(400, { message: 'Matterport did not accept this token id and secret', fields: { key: 'bad', secret: 'bad', other: 'x' } })).toEqual({
      kind: 'refused',
      message: 'Matterport did not accept this token id and secret',
      fields: { key: 'bad', secret: 'bad' },
    });
    expect(tokenSaveOutcome(503, { message: 'Matterport cannot be reached' })).toEqual({ kind: 'later', message: 'Matterport cannot be reached' });
    expect(tokenSaveOutcome(429, {})).toEqual({ kind: 'later', message: null });
    expect(tokenSaveOutcome(500, 'oops')).toEqual({ kind: 'failed', message: null });
  });

  it('recognises a Matterport model id or link', () => {
    expect(looksLikeModelKey('SxQL3iGyoDo')).toBe(true);
    expect(looksLikeModelKey('https://my.matterport.com/show/?m=SxQL3iGyoDo&play=1')).toBe(true);
    expect(looksLikeModelKey('https://discover.matterport.com/space/SxQL3iGyoDo')).toBe(true);
    expect(looksLikeModelKey('short')).toBe(false);
  });
});
