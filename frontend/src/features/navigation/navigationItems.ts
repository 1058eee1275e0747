import type { AppAction } from '../../shared/actions/appActions';
import type { UserRole } from '../../shared/auth/claims';
import { paths } from '../../shared/routing/paths';

export type NavigationKey =
  | 'updates'
  | 'popularTags'
  | 'moderation'
  | 'manageMedia'
  | 'manageAds'
  | 'analytics'
  | 'adsAnalytics'
  | 'mailingList'
  | 'classifications'
  | 'addMedia'
  | 'marketplace'
  | 'creatorProfile'
  | 'profile'
  | 'settings'
  | 'helpFeedback';

/** Spec §2 marks some entries "(mobile)" or "(desktop)": they follow the layout breakpoints. */
export type Device = 'mobile' | 'tablet' | 'desktop';
type Shown = 'always' | 'mobile' | 'desktop';

export type NavigationTarget =
  | { kind: 'action'; action: AppAction }
  | { kind: 'route'; to: string }
  | { kind: 'external'; href: string };

export interface NavigationItem {
  key: NavigationKey;
  target: NavigationTarget;
  requiresSignIn: boolean;
  shown: Shown;
}

interface ItemContext {
  creatorId: number | null;
  marketplaceUrl: string;
}

type ItemBuilder = (context: ItemContext & { role: UserRole }) => NavigationItem | null;

const action = (key: NavigationKey, target: AppAction, requiresSignIn: boolean, shown: Shown = 'always'): ItemBuilder =>
  () => ({ key, target: { kind: 'action', action: target }, requiresSignIn, shown });

const ITEMS: Record<NavigationKey, ItemBuilder> = {
  updates: action('updates', 'updates', false),
  popularTags: () => ({ key: 'popularTags', target: { kind: 'route', to: paths.popularTags }, requiresSignIn: false, shown: 'always' }),
  moderation: () => ({ key: 'moderation', target: { kind: 'route', to: paths.moderation }, requiresSignIn: true, shown: 'always' }),
  manageMedia: action('manageMedia', 'manageMedia', true, 'desktop'),
  manageAds: action('manageAds', 'manageAds', true, 'desktop'),
  // An admin's Analytics is the platform's statistics page; a creator's stays the app action of their own analytics.
  analytics: (context) =>
    context.role === 'admin'
      ? { key: 'analytics', target: { kind: 'route', to: paths.statistics }, requiresSignIn: true, shown: 'always' }
      : action('analytics', 'analytics', true)(context),
  adsAnalytics: action('adsAnalytics', 'adsAnalytics', true),
  classifications: () => ({ key: 'classifications', target: { kind: 'route', to: paths.classifications }, requiresSignIn: true, shown: 'always' }),
  addMedia: action('addMedia', 'addMedia', true, 'mobile'),
  profile: action('profile', 'profile', true),
  settings: action('settings', 'settings', true),
  helpFeedback: action('helpFeedback', 'helpFeedback', false),
  mailingList: () => ({ key: 'mailingList', target: { kind: 'route', to: paths.mailingList }, requiresSignIn: true, shown: 'always' }),
  // Without a configured marketplace address the entry has nowhere to go, so it is left out.
  marketplace: ({ marketplaceUrl }) =>
    marketplaceUrl
      ? { key: 'marketplace', target: { kind: 'external', href: marketplaceUrl }, requiresSignIn: false, shown: 'mobile' }
      : null,
  creatorProfile: ({ creatorId }) =>
    creatorId === null
      ? null
      : { key: 'creatorProfile', target: { kind: 'route', to: paths.creator(creatorId) }, requiresSignIn: true, shown: 'always' },
};

/**
 * Spec §2 "Navigation menu by role", in the spec's order. Guests see the "other users" list. A creator
 * also gets Manage Ads (desktop) beside Manage Media: §1 and §7 let creators add and manage their ads,
 * which the §2 list leaves them no way to reach. Every role gets Popular tags after Updates (issue 18:
 * the most used tags, hashtags of descriptions included).
 */
const MENU_BY_ROLE: Record<UserRole, readonly NavigationKey[]> = {
  admin: ['updates', 'popularTags', 'moderation', 'manageMedia', 'manageAds', 'analytics', 'adsAnalytics', 'mailingList', 'classifications'],
  creator: [
    'updates',
    'popularTags',
    'addMedia',
    'marketplace',
    'manageMedia',
    'manageAds',
    'creatorProfile',
    'analytics',
    'adsAnalytics',
    'settings',
    'helpFeedback',
  ],
  user: ['updates', 'popularTags', 'addMedia', 'marketplace', 'manageMedia', 'profile', 'helpFeedback', 'settings'],
  guest: ['updates', 'popularTags', 'addMedia', 'marketplace', 'manageMedia', 'profile', 'helpFeedback', 'settings'],
};

function isShownOn(item: NavigationItem, device: Device): boolean {
  return item.shown === 'always' || item.shown === device;
}

/** The menu entries for a role on a device (the final Login / Logout entry is added by the menu). */
export function navigationItems(role: UserRole, device: Device, context: ItemContext): NavigationItem[] {
  return MENU_BY_ROLE[role]
    .map((key) => ITEMS[key]({ ...context, role }))
    .filter((item): item is NavigationItem => item !== null && isShownOn(item, device));
}
