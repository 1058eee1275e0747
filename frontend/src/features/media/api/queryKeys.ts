import { tourQueryKeys } from '../../../shared/tours/tourQueryKeys';

/**
 * react-query keys of the media form. The tour being edited is `tourQueryKeys.detail(guid)`, shared
 * with the tour page; what the form looks up about a link starts with the tour keys too.
 */
export const mediaQueryKeys = {
  /** What the provider's page says about a tour link (GET discover). */
  lookup: (url: string, vendorName: string) => [...tourQueryKeys.all, 'discover', url, vendorName] as const,
  /** Whether a link is already used by another tour. */
  linkExists: (link: string) => [...tourQueryKeys.all, 'link-exists', link] as const,
  /** Tags and a category suggested for a title and description. */
  documentTags: (text: string) => ['classifications', 'document-tags', text] as const,
  /** Places matching the address field's text. */
  locationSearch: (text: string) => ['locations', 'search', text] as const,
  /** Where a place id is. */
  placeCenter: (placeId: string) => ['locations', 'location', placeId] as const,
  /** The address at a picked point ('longitude,latitude'). */
  addressAt: (coordinates: string) => ['locations', 'address-at', coordinates] as const,
};
