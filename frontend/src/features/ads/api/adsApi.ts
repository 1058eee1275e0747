import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';

import {
  adsAdCounts,
  adsAddAd,
  adsAddAdOnBehalf,
  adsDeleteAd,
  adsLinkExists,
  adsUpdateAd,
  adsUploadPreviewImage,
  adsUserAds,
} from '../../../shared/api/generated/sdk.gen';
import type { AdTaskName, AdUserStatus, AdWrite } from '../../../shared/api/generated/types.gen';
import { adsQueryKeys } from './queryKeys';

/** Ads per page of Manage Ads ("Show more" asks for the next). */
export const ADS_PAGE_SIZE = 50;

export interface AdsFilter {
  status: AdUserStatus;
  search: string;
}

/** GET user/{user_id}: the owner's ads in every state, newest first (owner or admin). */
export function userAdsQueryOptions(userId: number, filter: AdsFilter) {
  return infiniteQueryOptions({
    queryKey: adsQueryKeys.userAds(userId, filter),
    queryFn: async ({ pageParam, signal }) => {
      const search = filter.search.trim();
      const { data } = await adsUserAds({
        path: { user_id: userId },
        query: { status: filter.status, searchPattern: search || undefined, limit: ADS_PAGE_SIZE, offset: pageParam },
        signal,
        throwOnError: true,
      });
      return data;
    },
    initialPageParam: 0,
    getNextPageParam: (lastPage) => {
      const next = lastPage.offset + lastPage.data.length;
      return lastPage.data.length > 0 && next < lastPage.total_items ? next : undefined;
    },
  });
}

/** GET counts/{user_id}: how many ads the owner has, by state. */
export function adCountsQueryOptions(userId: number) {
  return queryOptions({
    queryKey: adsQueryKeys.counts(userId),
    queryFn: async ({ signal }) => (await adsAdCounts({ path: { user_id: userId }, signal, throwOnError: true })).data,
  });
}

/** GET link_exists: the form's uniqueness check while the link is typed. */
export function linkExistsQueryOptions(link: string) {
  return queryOptions({
    queryKey: adsQueryKeys.linkExists(link),
    queryFn: async ({ signal }) => (await adsLinkExists({ query: { link }, signal, throwOnError: true })).data,
    staleTime: 30_000,
  });
}

/** PUT {id} with a task: activate (publish), deactivate (move to drafts) or approve (admins). */
export async function runAdTask(adId: number, task: AdTaskName) {
  return (await adsUpdateAd({ path: { id: String(adId) }, body: { task }, throwOnError: true })).data;
}

export async function deleteAd(adId: number) {
  return (await adsDeleteAd({ path: { id: String(adId) }, throwOnError: true })).data;
}

/** POST preview-image: the card-size copy's path goes into the form's preview_picture. */
export async function uploadAdPreviewImage(file: File) {
  return (await adsUploadPreviewImage({ body: { image: file }, throwOnError: true })).data;
}

export interface AdOwner {
  userid: number;
  platform_username: string;
}

export type AdSaveRequest =
  | { mode: 'add'; body: AdWrite; onBehalfOf: AdOwner | null }
  | { mode: 'edit'; adId: number; body: AdWrite };

export interface AdSaveAnswer {
  status: number;
  body: unknown;
}

/**
 * Add (POST /), add for a user (POST on-behalf-of, admins) or edit (PUT {id}). The status tells
 * what happened (201 saved, 200 an edit waiting for approval, 400/409 the failing fields): the
 * caller reads both.
 */
export async function saveAd(request: AdSaveRequest): Promise<AdSaveAnswer> {
  const answer =
    request.mode === 'edit'
      ? await adsUpdateAd({ path: { id: String(request.adId) }, body: request.body })
      : request.onBehalfOf
        ? await adsAddAdOnBehalf({ body: { ...request.body, ...request.onBehalfOf } })
        : await adsAddAd({ body: request.body });
  if (!answer.response) throw answer.error ?? new Error('No answer from the server');
  return { status: answer.response.status, body: answer.data ?? answer.error };
}
