import { discoveryQueryKeys } from '../../../shared/discovery/discoveryQueryKeys';
import { tourQueryKeys } from '../../../shared/tours/tourQueryKeys';

/**
 * react-query keys of the tour page, saved tours and manage media, built on the shared tour keys
 * (`tourQueryKeys.detail`, `.player`), so adding or editing a tour anywhere invalidates them.
 */
export const toursQueryKeys = {
  /** Tours like this one: a card list, so pushed counters reach its cards. */
  similar: (guid: string, language: string) => [...discoveryQueryKeys.all, 'similar-media', guid, language] as const,
  /** A user's saved tours in one language (created_ago comes translated by the server). */
  savedPages: (userId: number, language: string) => [...tourQueryKeys.all, 'saved', userId, language] as const,
  /** The owner's tours in manage media, for one sort and filter. */
  userToursPages: (userId: number, query: object) => [...tourQueryKeys.userTours(userId), query] as const,
  /** The creator's featured tours in their order. */
  featured: (userId: number) => [...tourQueryKeys.userTours(userId), 'featured'] as const,
};
