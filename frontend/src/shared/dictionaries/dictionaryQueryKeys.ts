/** react-query keys of the dictionaries (src/shared/dictionaries/queries.ts), one per dictionary. */
export const dictionaryQueryKeys = {
  vendors: ['vendors'] as const,
  categories: ['classifications', 'categories'] as const,
  mediaTypes: ['classifications', 'media-types'] as const,
  captureDevices: ['classifications', 'capture-devices'] as const,
  addressCountries: ['locations', 'address-countries'] as const,
  tags: (text: string, categoryId: number | null, mediaTypeId: number | null) => ['classifications', 'tags', text, categoryId, mediaTypeId] as const,
};
