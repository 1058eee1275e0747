import type { CurrentUserOut } from '../shared/api/generated/types.gen';

/** A signed-in user as GET /v2/users/ answers it (spec §3 "Current user"). */
export function testUser(overrides: Partial<CurrentUserOut> = {}): CurrentUserOut {
  return {
    userid: 7,
    email: 'ada@example.com',
    first_name: 'Ada',
    last_name: 'Lovelace',
    username: 'Ada Lovelace',
    phone: null,
    platform_username: 'ada_l',
    user_settings: {},
    auth_system: 'email',
    user_system_id: null,
    creatorId: null,
    profile_img: null,
    is_active: true,
    user_active: true,
    is_admin: false,
    roles: [],
    potential_creator: false,
    guide_steps: { completeGuide: false },
    consent_emails: false,
    trusted: false,
    editing_creator_pending: false,
    profile_edit_pending: false,
    tour_edit_pending: false,
    ...overrides,
  };
}

/** An unsigned JWT whose claims say who is signed in; the client only reads the claims. */
export function testAccessToken(claims: Record<string, unknown> = { sub: '7' }): string {
  const encode = (value: object) => btoa(JSON.stringify(value)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
  return `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode(claims)}.signature`;
}
