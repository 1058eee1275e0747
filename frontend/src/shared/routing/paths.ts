/** URLs of the app's screens (spec §2 routes), so features link to them without knowing the router. */
export const paths = {
  root: '/',
  home: '/home',
  feed: '/feed',
  map: '/map',
  registration: '/registration',
  createAccount: '/create_account',
  resetPassword: '/resetpassword',
  crash: '/page-not-found',
  billingPlans: '/billing/plans',
  billingSuccess: '/billing/success',
  mailingList: '/admin/mailing-list',
  moderation: '/admin/moderation',
  classifications: '/admin/classifications',
  statistics: '/admin/statistics',
  usersAdmin: '/admin/users',
  popularTags: '/tags',
  /** The #tag search: the feed of one tag's tours, the other filters cleared (filterState `tag`). */
  tagSearch: (tagId: number): string => `/feed?tag=${encodeURIComponent(String(tagId))}`,
  tour: (guid: string): string => `/virtualtours/${encodeURIComponent(guid)}`,
  creator: (creatorId: number | string, creatorName?: string): string =>
    creatorName
      ? `/creator/${encodeURIComponent(String(creatorId))}/${encodeURIComponent(creatorName)}`
      : `/creator/${encodeURIComponent(String(creatorId))}`,
  creatorMap: (creatorName: string): string => `/${encodeURIComponent(creatorName)}/map`,
  creatorGrid: (creatorName: string): string => `/${encodeURIComponent(creatorName)}/grid`,
} as const;
