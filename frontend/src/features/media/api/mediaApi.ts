import { queryOptions } from '@tanstack/react-query';

import {
  classificationsDocumentTags,
  locationsGetAddress,
  locationsLocation,
  locationsSearchLocations,
  locationsUserLocationByCoords,
  toursAddTour,
  toursAddTourOnBehalf,
  toursDiscover,
  toursEditTour,
  toursGetTour,
  toursLinkExists,
  toursUploadPreviewImage,
} from '../../../shared/api/generated/sdk.gen';
import type { DiscoverHost, OnBehalfWrite, TourEdit, TourWrite } from '../../../shared/api/generated/types.gen';
import { tourQueryKeys } from '../../../shared/tours/tourQueryKeys';
import type { OnBehalfOf } from '../model/mediaForm';
import { mediaQueryKeys } from './queryKeys';

/** GET /v2/virtualtours/{id}: the tour being edited, fresh (the owner may have changed it elsewhere). */
export function tourForEditQueryOptions(guid: string) {
  return queryOptions({
    queryKey: tourQueryKeys.detail(guid),
    queryFn: async ({ signal }) => (await toursGetTour({ path: { id: guid }, signal, throwOnError: true })).data,
    staleTime: 0,
  });
}

export interface LookupResult {
  image: string;
  title: string;
  description: string;
  address_str: string | null;
  address_id: string | null;
  /** The user's own custom host the link is on (spec §2 white-label host hint), if any. */
  host: DiscoverHost | null;
}

/** GET discover (url, vendor_name): what the provider's page says about the tour (spec §4). */
export function lookupQueryOptions(url: string, vendorName: string) {
  return queryOptions({
    queryKey: mediaQueryKeys.lookup(url, vendorName),
    queryFn: async ({ signal }): Promise<LookupResult> => {
      const { data } = await toursDiscover({ query: { url, vendor_name: vendorName || undefined }, signal, throwOnError: true });
      const { OpenGraph: page, address_id, address_str, host } = data.data;
      return { ...page, address_id: address_id ?? null, address_str: address_str ?? null, host: host ?? null };
    },
    retry: false,
    staleTime: 5 * 60_000,
  });
}

/** GET link_exists: spec §5 'Link is not unique' before the user even saves. */
export function linkExistsQueryOptions(link: string) {
  return queryOptions({
    queryKey: mediaQueryKeys.linkExists(link),
    queryFn: async ({ signal }) => (await toursLinkExists({ query: { link }, signal, throwOnError: true })).data.exists,
    retry: false,
    staleTime: 30_000,
  });
}

export interface Suggestions {
  tags: ReadonlyArray<{ id: number; name: string }>;
  category_id: number | null;
}

/** POST /v2/categories/document-tags: tags and a category for the tour's title and description. */
export function suggestionsQueryOptions(text: string) {
  const [title = '', ...rest] = text.split('\n');
  return queryOptions({
    queryKey: mediaQueryKeys.documentTags(text),
    queryFn: async ({ signal }): Promise<Suggestions> => {
      const { data } = await classificationsDocumentTags({ body: { documents: [title, rest.join('\n')] }, signal, throwOnError: true });
      return { tags: data.tags, category_id: data.category_id };
    },
    retry: false,
    staleTime: 5 * 60_000,
  });
}

export async function uploadPreviewImage(file: File) {
  return (await toursUploadPreviewImage({ body: { image: file }, throwOnError: true })).data;
}

export interface SaveAnswer {
  status: number;
  body: unknown;
}

/**
 * Add (POST /), add on behalf of a user (POST on-behalf-of) or edit (PUT /). The status decides what
 * the form does (spec §8), and 208 is a success code carrying an error: the caller reads both.
 */
export async function saveMedia(mode: 'add' | 'edit', payload: TourWrite | TourEdit, onBehalfOf: OnBehalfOf | null): Promise<SaveAnswer> {
  const answer =
    mode === 'edit'
      ? await toursEditTour({ body: payload as TourEdit })
      : onBehalfOf
        ? await toursAddTourOnBehalf({ body: { ...payload, userid: onBehalfOf.userid, platform_username: onBehalfOf.platform_username } satisfies OnBehalfWrite })
        : await toursAddTour({ body: payload });
  if (!answer.response) throw answer.error ?? new Error('No answer from the server');
  return { status: answer.response.status, body: answer.data ?? answer.error };
}

/** Places for the address field and the picker's search box. */
export function locationSearchQueryOptions(text: string) {
  return queryOptions({
    queryKey: mediaQueryKeys.locationSearch(text),
    queryFn: async ({ signal }) => (await locationsSearchLocations({ query: { search_text: text, limit: 8 }, signal, throwOnError: true })).data.data,
    staleTime: 5 * 60_000,
  });
}

/** Where a place id is, to open the picker there. Centres are [lng, lat]. */
export function placeCenterQueryOptions(placeId: string) {
  return queryOptions({
    queryKey: mediaQueryKeys.placeCenter(placeId),
    queryFn: async ({ signal }) => {
      const { data, error } = await locationsLocation({ query: { id: placeId }, signal });
      const [lng, lat] = data?.center ?? [];
      // An unknown place simply opens the picker on the world.
      return error || lng === undefined || lat === undefined ? null : { lng, lat };
    },
    staleTime: 5 * 60_000,
  });
}

/**
 * The address at a point picked on the map (get-address with 'longitude,latitude'); where nothing is
 * there the surrounding place's name, or 'Unresolved address' (spec §8 reverse geocode failure).
 */
export function addressAtQueryOptions(point: { lng: number; lat: number } | null) {
  const coordinates = point ? `${point.lng.toFixed(6)},${point.lat.toFixed(6)}` : '';
  return queryOptions({
    queryKey: mediaQueryKeys.addressAt(coordinates),
    queryFn: async ({ signal }) => {
      const found = await locationsGetAddress({ query: { coordinates }, signal });
      if (found.data) return { addressStr: found.data.address_str, addressId: found.data.address_id };
      const around = await locationsUserLocationByCoords({ query: { coordinates }, signal, throwOnError: true });
      return { addressStr: around.data.text, addressId: null };
    },
    staleTime: Infinity,
  });
}
