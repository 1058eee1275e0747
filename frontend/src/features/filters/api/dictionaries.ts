import { queryOptions } from '@tanstack/react-query';

import {
  classificationsListMediaTypes,
  classificationsListTags,
  locationsAddressCountries,
  vendorsListVendors,
} from '../../../shared/api/generated/sdk.gen';

/** Dictionaries change when an admin edits them: rare enough to keep them for ten minutes. */
const DICTIONARY_STALE_MS = 10 * 60_000;

/** The countries that have tours (spec §2 filters: countries come from address-countries). */
export function addressCountriesQueryOptions() {
  return queryOptions({
    queryKey: ['locations', 'address-countries'],
    queryFn: async ({ signal }) => (await locationsAddressCountries({ signal, throwOnError: true })).data.data,
    staleTime: DICTIONARY_STALE_MS,
  });
}

export function vendorsQueryOptions() {
  return queryOptions({
    queryKey: ['vendors'],
    queryFn: async ({ signal }) => (await vendorsListVendors({ signal, throwOnError: true })).data.data,
    staleTime: DICTIONARY_STALE_MS,
  });
}

export function mediaTypesQueryOptions() {
  return queryOptions({
    queryKey: ['classifications', 'media-types'],
    queryFn: async ({ signal }) => (await classificationsListMediaTypes({ signal, throwOnError: true })).data.data,
    staleTime: DICTIONARY_STALE_MS,
  });
}

interface TagSearch {
  search: string;
  categoryId: number | null;
  mediaTypeId: number | null;
}

/**
 * Tags by name (spec §5 tag search: case-insensitive, narrowed by category and/or media type);
 * an empty search lists the first ones alphabetically.
 */
export function tagsQueryOptions({ search, categoryId, mediaTypeId }: TagSearch) {
  const text = search.trim().replace(/^#/, '');
  return queryOptions({
    queryKey: ['classifications', 'tags', text, categoryId, mediaTypeId],
    queryFn: async ({ signal }) =>
      (
        await classificationsListTags({
          query: { search: text || undefined, category_id: categoryId ?? undefined, media_type_id: mediaTypeId ?? undefined },
          signal,
          throwOnError: true,
        })
      ).data.data,
    staleTime: DICTIONARY_STALE_MS,
  });
}
