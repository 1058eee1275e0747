import { discoveryQueryKeys } from '../../../shared/discovery/discoveryQueryKeys';

/** react-query keys of the map; its lists are card lists, so they start with the discovery keys. */
export const mapQueryKeys = {
  /** Clusters and points of one area (GET /v2/discovery/filtered-map); null until the map has a viewport. */
  filteredMap: (query: object | null, language: string) => [...discoveryQueryKeys.all, 'filtered-map', query, language] as const,
  /** Every tour of one spot, unclustered (the spot list). */
  spot: (query: object | null, language: string) => [...discoveryQueryKeys.all, 'map-spot', query, language] as const,
  /** The tours in the visible area, a page at a time, as the grid orders them (the map's list alternative). */
  toursInView: (query: object | null, language: string) => [...discoveryQueryKeys.all, 'map-tours-in-view', query, language] as const,
  /** Every point of one creator (the creator-scoped map). */
  creatorPoints: (userId: number | null, query: object, language: string) => [...discoveryQueryKeys.all, 'creator-map', userId, query, language] as const,
};
