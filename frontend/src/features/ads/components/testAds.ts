import type { AdOut } from '../../../shared/api/generated/types.gen';

/** An ad as GET user/{user_id} answers it. */
export function testAd(overrides: Partial<AdOut> = {}): AdOut {
  return {
    id: 1,
    guid: 'ad-1',
    user_id: 7,
    platform_username: 'ada_l',
    title: 'Drone footage',
    description: null,
    link: 'https://drones.example.com/',
    preview_picture: '/uploads/previews/a-card.jpg',
    preview_picture_large: null,
    tags: [],
    status: 'active',
    approval_state: 'approved',
    edit_pending: false,
    is_featured: false,
    featured_order: null,
    views: 120,
    clicks: 7,
    likes: 0,
    saves: 0,
    shared: 0,
    created_date: '2026-11-01T10:00:00Z',
    updated_date: '2026-11-01T10:00:00Z',
    is_owned: true,
    ...overrides,
  };
}

export const page = (data: AdOut[]) => ({ data, total_items: data.length, limit: 50, offset: 0 });
