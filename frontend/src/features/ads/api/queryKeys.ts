/** react-query keys of Manage Ads; everything under `all` is refreshed after an ad is saved, moved or deleted. */
export const adsQueryKeys = {
  all: ['ads'] as const,
  /** GET user/{user_id}: one owner's ads for one filter and search. */
  userAds: (userId: number, filter: object) => ['ads', 'user', userId, filter] as const,
  /** GET counts/{user_id}: the owner's ads by state. */
  counts: (userId: number) => ['ads', 'counts', userId] as const,
  /** GET link_exists: whether another ad has this link. */
  linkExists: (link: string) => ['ads', 'link-exists', link] as const,
};
