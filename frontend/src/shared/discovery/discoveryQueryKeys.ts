/**
 * react-query keys of listed cards. Every query of cards (the feed's and creator grids' infinite
 * pages, similar tours, the map's lists and search suggestions) starts with `all`: a tour added,
 * edited or saved invalidates them together, and pushed tour and creator counters are written into
 * their cards. Each feature builds its own keys on these (features/<feature>/api/queryKeys.ts).
 */
export const discoveryQueryKeys = {
  all: ['discovery'] as const,
  /** The feed's pages (GET /v2/discovery/filtered-grid); "For You" changes with the user's interests. */
  filteredGrids: ['discovery', 'filtered-grid'] as const,
};
