import { discoveryQueryKeys } from '../../../shared/discovery/discoveryQueryKeys';

/** react-query keys of the feed; `language` is in them because cards carry "3 days ago". */
export const feedQueryKeys = {
  /** The feed's grid pages (GET /v2/discovery/filtered-grid) for one query. */
  filteredGrid: (query: object, language: string) => [...discoveryQueryKeys.filteredGrids, query, language] as const,
  /** One creator's tours with the feed's filters (the creator-scoped grid). */
  creatorMedia: (userId: number, query: object, language: string) => [...discoveryQueryKeys.all, 'creator-media', userId, query, language] as const,
};
