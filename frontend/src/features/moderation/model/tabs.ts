import type { ApprovalKind } from '../../../shared/api/generated/types.gen';

/**
 * Spec §2 "Moderation tabs" that have something to show today. Most are a set of the kinds of spec §4
 * "Pending approval items": every kind belongs to exactly one such tab besides "pending", which shows
 * them all. The others draw a panel of their own instead of approval items (`panel`): bug reports and
 * feature requests (the Help & Feedback messages with their statuses), the crawler's settings (its
 * configurations and sessions) and the tours its crawls filed. Not here: approved providers; ads
 * wait in "pending" only.
 */
export type ModerationTabKey =
  | 'pending'
  | 'userTours'
  | 'tours'
  | 'trusted'
  | 'users'
  | 'providers'
  | 'customProviders'
  | 'categories'
  | 'bugReports'
  | 'featureRequests'
  | 'crawlerSettings'
  | 'crawlerTours';

export type FeedbackKind = 'bugs' | 'features';

/** A tab that lists something other than approval items. */
export type TabPanel = FeedbackKind | 'crawlerSettings' | 'crawlerTours';

export interface ModerationTab {
  key: ModerationTabKey;
  /** The kinds the tab lists; null: every kind (the pending approvals tab, with a kind filter). */
  kinds: readonly ApprovalKind[] | null;
  /** Its own panel instead of approval items (then `kinds` is empty). */
  panel?: TabPanel;
}

/** Every kind of spec §4, in the order the kind filter offers them. */
export const ALL_KINDS: readonly ApprovalKind[] = [
  'new_virtual_tour',
  'vt_edit',
  'new_user',
  'user_profile_edit',
  'profile_image',
  'new_creator_profile',
  'creator_profile_edit',
  'new_provider',
  'new_alternative_provider',
  'new_custom_provider',
  'new_alternative_custom_provider',
  'category_request',
  'new_ad',
  'ad_edit',
  'trusted_audit',
];

export const MODERATION_TABS: readonly ModerationTab[] = [
  { key: 'pending', kinds: null },
  { key: 'userTours', kinds: ['new_virtual_tour'] },
  { key: 'tours', kinds: ['vt_edit'] },
  // Issue 14 part 7: a trusted creator's tours are published at once and audited here afterwards.
  { key: 'trusted', kinds: ['trusted_audit'] },
  { key: 'users', kinds: ['new_user', 'user_profile_edit', 'profile_image', 'new_creator_profile', 'creator_profile_edit'] },
  { key: 'providers', kinds: ['new_provider', 'new_alternative_provider'] },
  { key: 'customProviders', kinds: ['new_custom_provider', 'new_alternative_custom_provider'] },
  { key: 'categories', kinds: ['category_request'] },
  { key: 'bugReports', kinds: [], panel: 'bugs' },
  { key: 'featureRequests', kinds: [], panel: 'features' },
  { key: 'crawlerSettings', kinds: [], panel: 'crawlerSettings' },
  { key: 'crawlerTours', kinds: [], panel: 'crawlerTours' },
];

export function isFeedbackPanel(panel: TabPanel | undefined): panel is FeedbackKind {
  return panel === 'bugs' || panel === 'features';
}

export function isTabKey(value: string | null | undefined): value is ModerationTabKey {
  return MODERATION_TABS.some((tab) => tab.key === value);
}

export function tabByKey(key: ModerationTabKey): ModerationTab {
  return MODERATION_TABS.find((tab) => tab.key === key) ?? MODERATION_TABS[0]!;
}

export function isApprovalKind(value: string | null | undefined): value is ApprovalKind {
  return ALL_KINDS.includes(value as ApprovalKind);
}

/** The kinds a tab offers in its kind filter (a tab of one kind offers none). */
export function tabKinds(tab: ModerationTab): readonly ApprovalKind[] {
  return tab.kinds ?? ALL_KINDS;
}

/** Items waiting in a tab, from the counts per kind (`pending` of the list answer and of every push). */
export function tabCount(tab: ModerationTab, pending: Readonly<Record<string, number>> | undefined): number {
  if (!pending) return 0;
  const kinds = tab.kinds ?? Object.keys(pending);
  return kinds.reduce((total, kind) => total + (pending[kind] ?? 0), 0);
}

/** The kinds to ask for: the chosen one when it belongs to the tab, else the tab's own (null: all). */
export function queryKinds(tab: ModerationTab, kind: ApprovalKind | null): readonly ApprovalKind[] | null {
  if (kind !== null && tabKinds(tab).includes(kind)) return [kind];
  return tab.kinds;
}
