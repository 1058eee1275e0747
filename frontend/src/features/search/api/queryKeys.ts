import { discoveryQueryKeys } from '../../../shared/discovery/discoveryQueryKeys';

/** react-query keys of the search box. */
export const searchQueryKeys = {
  /** Suggestions for the typed text (GET /v2/discovery/search). */
  suggestions: (searchData: string) => [...discoveryQueryKeys.all, 'search', searchData] as const,
};
