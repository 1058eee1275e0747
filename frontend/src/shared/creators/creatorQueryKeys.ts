/**
 * react-query keys of creators. Every creator query starts with `all`: pushed creator counters are
 * merged into those about that creator (the realtime client, src/shared/socket/cacheWriters.ts).
 */
export const creatorQueryKeys = {
  all: ['creators'] as const,
  /** A creator page's profile (GET /v2/creators/by-id/{id}). */
  byId: (creatorId: number) => ['creators', 'by-id', creatorId] as const,
  /** The creator behind a `/{creatorName}/grid` or `/map` address (lower-cased name). */
  byName: (name: string) => ['creators', 'by-name', name] as const,
  /** A creator page opened by name (GET /v2/creators/creator-by-creator-name/{creatorName}). */
  profileByName: (name: string) => ['creators', 'profile-by-name', name] as const,
  /**
   * A creator's live analytics totals (CREATOR_ANALYTICS, pushed to the owner's own room): views,
   * likes, saves, shares and followers. The analytics page (a later issue) reads and loads this entry.
   */
  analytics: (creatorId: number) => ['creators', 'analytics', creatorId] as const,
  /** Whether the signed-in user's new profile or profile edit waits for approval (GET is-pending-creator). */
  pending: (userId: string) => ['creators', 'pending', userId] as const,
  /** The signed-in user's own tours, to pick featured ones from (GET /v2/virtualtours/user/{userid}). */
  ownTours: (userId: number) => ['creators', 'own-tours', userId] as const,
};
