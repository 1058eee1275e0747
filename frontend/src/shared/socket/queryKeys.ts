/**
 * Query keys the realtime events write into. The features that read these queries use the same
 * helpers, so a pushed counter lands where the page reads it, with no refetch.
 */

// Tour counters go into the player query, whose key lives with the other tour keys:
// tourCountersKey in ../tours/tourQueryKeys.ts.

/** Every creator query starts with this; creator counters are merged into those about that creator. */
export const CREATOR_QUERIES_KEY = ['creators'] as const;

/** The admins' pending-approval counts per kind (the moderation badges). */
export const MODERATION_COUNTS_KEY = ['moderation', 'pending-counts'] as const;

/**
 * Every query of listed cards (the feed's and creator grids' infinite pages, similar and saved tours,
 * the map's lists) starts with this; pushed tour and creator counters are written into their cards.
 */
export const CARD_LIST_QUERIES_KEY = ['discovery'] as const;

/**
 * A creator's live analytics totals (CREATOR_ANALYTICS, pushed to the owner's own room): views, likes,
 * saves, shares and followers. The analytics page (a later issue) reads and loads this entry.
 */
export function creatorAnalyticsKey(creatorId: number) {
  return [...CREATOR_QUERIES_KEY, 'analytics', creatorId] as const;
}

/** A creator page's profile query (GET /v2/creators/by-id/{id}). */
export function creatorKey(creatorId: number) {
  return [...CREATOR_QUERIES_KEY, 'by-id', creatorId] as const;
}
