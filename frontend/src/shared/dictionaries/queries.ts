import { queryOptions } from '@tanstack/react-query';

import {
  classificationsListCaptureDevices,
  classificationsListCategories,
  classificationsListMediaTypes,
  classificationsListTags,
  locationsAddressCountries,
  vendorsListVendors,
} from '../api/generated/sdk.gen';
import { dictionaryQueryKeys } from './dictionaryQueryKeys';

/**
 * The dictionaries every feature reads (hosts, categories, media types, capture devices, countries).
 * One key per dictionary, so the filters, the category strip, the media form and the tour page share
 * what any of them loaded.
 */

/** Dictionaries change when an admin edits them: rare enough to keep them for ten minutes. */
export const DICTIONARY_STALE_MS = 10 * 60_000;

/** The hosts with their link and embed rules (GET /v2/vendors/). */
export function vendorsQueryOptions() {
  return queryOptions({
    queryKey: dictionaryQueryKeys.vendors,
    queryFn: async ({ signal }) => (await vendorsListVendors({ signal, throwOnError: true })).data.data,
    staleTime: DICTIONARY_STALE_MS,
  });
}

export function categoriesQueryOptions() {
  return queryOptions({
    queryKey: dictionaryQueryKeys.categories,
    queryFn: async ({ signal }) => (await classificationsListCategories({ signal, throwOnError: true })).data.data,
    staleTime: DICTIONARY_STALE_MS,
  });
}

export function mediaTypesQueryOptions() {
  return queryOptions({
    queryKey: dictionaryQueryKeys.mediaTypes,
    queryFn: async ({ signal }) => (await classificationsListMediaTypes({ signal, throwOnError: true })).data.data,
    staleTime: DICTIONARY_STALE_MS,
  });
}

export function captureDevicesQueryOptions() {
  return queryOptions({
    queryKey: dictionaryQueryKeys.captureDevices,
    queryFn: async ({ signal }) => (await classificationsListCaptureDevices({ signal, throwOnError: true })).data.data,
    staleTime: DICTIONARY_STALE_MS,
  });
}

/** The countries that have tours (spec §2 filters: countries come from address-countries). */
export function addressCountriesQueryOptions() {
  return queryOptions({
    queryKey: dictionaryQueryKeys.addressCountries,
    queryFn: async ({ signal }) => (await locationsAddressCountries({ signal, throwOnError: true })).data.data,
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
    queryKey: dictionaryQueryKeys.tags(text, categoryId, mediaTypeId),
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
