import type { ModerationUserOut } from '../../shared/api/generated/types.gen';

/** An account as GET /v2/users/get-moderation-users lists it (tests only). */
export function moderationUser(overrides: Partial<ModerationUserOut> = {}): ModerationUserOut {
  return {
    userid: 42,
    email: 'mara@example.com',
    username: 'Mara Quay',
    first_name: 'Mara',
    last_name: 'Quay',
    platform_username: 'mara_q',
    profile_img: null,
    creatorId: 8,
    auth_system: 'email',
    is_admin: false,
    roles: [],
    trusted: false,
    potential_creator: false,
    is_active: true,
    user_active: true,
    is_deleted: false,
    state: 'active',
    tours_count: 3,
    editing_creator_pending: false,
    profile_edit_pending: false,
    tour_edit_pending: false,
    created_at: '2026-10-01T08:00:00Z',
    last_sign_in_at: null,
    ...overrides,
  };
}
