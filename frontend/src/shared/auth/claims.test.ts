import { decodeTokenClaims, roleFromClaims, type TokenClaims, type UserRole } from './claims';

function token(payload: object): string {
  const encode = (value: object) => {
    const binary = String.fromCharCode(...new TextEncoder().encode(JSON.stringify(value)));
    return btoa(binary).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
  };
  return `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode(payload)}.signature`;
}

describe('token claims', () => {
  it('reads the claims without verifying the signature', () => {
    expect(decodeTokenClaims(token({ sub: '7', is_admin: true, roles: ['CM'], creator_id: 3 }))).toEqual({
      sub: '7',
      is_admin: true,
      roles: ['CM'],
      creator_id: 3,
    });
  });

  it('reads non-ASCII claims', () => {
    expect(decodeTokenClaims(token({ sub: 'Ёжик' }))?.sub).toBe('Ёжик');
  });

  it('treats a malformed token as no claims', () => {
    expect(decodeTokenClaims('not-a-token')).toBeNull();
    expect(decodeTokenClaims('a.%%%.c')).toBeNull();
  });

  it.each<[TokenClaims | null, UserRole]>([
    [null, 'guest'],
    [{ is_admin: true, creator_id: 5 }, 'admin'],
    [{ is_admin: false, creator_id: 5 }, 'creator'],
    [{ roles: ['creator'] }, 'creator'],
    [{ roles: ['CM'], creator_id: null }, 'user'],
  ])('derives the role from %j', (claims, role) => {
    expect(roleFromClaims(claims)).toBe(role);
  });
});
