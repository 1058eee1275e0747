import { navigationItems } from './navigationItems';

const context = { creatorId: null, marketplaceUrl: 'https://market.example' };
const keys = (...args: Parameters<typeof navigationItems>) => navigationItems(...args).map((item) => item.key);

describe('navigation menu by role (spec §2)', () => {
  it('lists the admin entries, desktop-only ones on desktop', () => {
    expect(keys('admin', 'desktop', context)).toEqual([
      'updates',
      'popularTags',
      'moderation',
      'manageMedia',
      'manageAds',
      'analytics',
      'adsAnalytics',
      'mailingList',
      'classifications',
    ]);
    expect(keys('admin', 'mobile', context)).not.toContain('manageMedia');
    expect(keys('admin', 'mobile', context)).not.toContain('manageAds');
  });

  it('lists the creator entries with mobile-only ones on mobile', () => {
    expect(keys('creator', 'mobile', { ...context, creatorId: 9 })).toEqual([
      'updates',
      'popularTags',
      'addMedia',
      'marketplace',
      'creatorProfile',
      'analytics',
      'adsAnalytics',
      'settings',
      'helpFeedback',
    ]);
    expect(keys('creator', 'desktop', { ...context, creatorId: 9 })).toEqual([
      'updates',
      'popularTags',
      'manageMedia',
      'manageAds',
      'creatorProfile',
      'analytics',
      'adsAnalytics',
      'settings',
      'helpFeedback',
    ]);
  });

  it('gives users and guests the same list', () => {
    const expected = ['updates', 'popularTags', 'manageMedia', 'profile', 'helpFeedback', 'settings'];
    expect(keys('user', 'desktop', context)).toEqual(expected);
    expect(keys('guest', 'desktop', context)).toEqual(expected);
    expect(keys('guest', 'tablet', context)).toEqual(['updates', 'popularTags', 'profile', 'helpFeedback', 'settings']);
  });

  it('marks the entries that need an account', () => {
    const items = navigationItems('guest', 'mobile', context);
    const needSignIn = items.filter((item) => item.requiresSignIn).map((item) => item.key);
    expect(needSignIn).toEqual(['addMedia', 'profile', 'settings']);
  });

  it('leaves out the marketplace when no address is configured', () => {
    expect(keys('user', 'mobile', { ...context, marketplaceUrl: '' })).not.toContain('marketplace');
  });

  it('opens the Popular tags page for every role, signed in or not', () => {
    for (const role of ['admin', 'creator', 'user', 'guest'] as const) {
      const item = navigationItems(role, 'mobile', { ...context, creatorId: 9 }).find((entry) => entry.key === 'popularTags');
      expect(item).toEqual({ key: 'popularTags', target: { kind: 'route', to: '/tags' }, requiresSignIn: false, shown: 'always' });
    }
  });

  it('links the creator profile to the creator page', () => {
    const profile = navigationItems('creator', 'desktop', { ...context, creatorId: 42 }).find((item) => item.key === 'creatorProfile');
    expect(profile?.target).toEqual({ kind: 'route', to: '/creator/42' });
  });

  it("opens the statistics page from an admin's Analytics, and keeps a creator's Analytics an app action", () => {
    const analytics = (role: Parameters<typeof navigationItems>[0]) =>
      navigationItems(role, 'desktop', { ...context, creatorId: 9 }).find((item) => item.key === 'analytics')?.target;
    expect(analytics('admin')).toEqual({ kind: 'route', to: '/admin/statistics' });
    expect(analytics('creator')).toEqual({ kind: 'action', action: 'analytics' });
  });
});
