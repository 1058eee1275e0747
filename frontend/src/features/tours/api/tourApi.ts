import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';

import {
  discoverySimilarMedia,
  engagementPlayer,
  engagementPostLikes,
  engagementPostSaves,
  engagementPostShares,
  engagementPostView,
  toursCreatorTours,
  toursDeleteTour,
  toursGetTour,
  toursRunTask,
  toursSavedTours,
  toursSetFeaturedTours,
  toursUserTours,
} from '../../../shared/api/generated/sdk.gen';
import type { MediaCard, TaskName, UserTourSort } from '../../../shared/api/generated/types.gen';
import { tourQueryKeys } from '../../../shared/tours/tourQueryKeys';
import type { PlayerCounters } from '../model/playerCounters';
import { asSavedPage, nextSavedOffset, type SavedPage } from '../model/savedTours';
import { toursQueryKeys } from './queryKeys';

/** An error with the HTTP status the server answered, so the page can tell "not found" from "offline". */
export class TourRequestError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(typeof (body as { message?: unknown } | null)?.message === 'string' ? (body as { message: string }).message : `HTTP ${status}`);
  }
}

/** GET /v2/virtualtours/{id} (spec §3 Media read). */
export function tourQueryOptions(guid: string) {
  return queryOptions({
    queryKey: tourQueryKeys.detail(guid),
    queryFn: async ({ signal }) => {
      const { data, error, response } = await toursGetTour({ path: { id: guid }, signal });
      if (data) return data;
      throw new TourRequestError(response?.status ?? 0, error);
    },
    // A missing tour stays missing: do not ask again.
    retry: (count, error) => !(error instanceof TourRequestError && error.status === 404) && count < 1,
  });
}

/** GET player/{tour_id}: counters and the visitor's like/save (spec §3 Player parameters). Live pushes land here too. */
export function playerQueryOptions(guid: string) {
  return queryOptions({
    queryKey: tourQueryKeys.player(guid),
    queryFn: async ({ signal }): Promise<PlayerCounters> => {
      const { data } = await engagementPlayer({ path: { tour_id: guid }, signal, throwOnError: true });
      return { views: data.views, likes: data.likes, shared: data.shared, saves: data.saves, user_like: data.user_like, user_save: data.user_save };
    },
  });
}

/** POST post_view: counted once per viewer and time window on the server; answers the counters. */
export async function postView(guid: string) {
  return (await engagementPostView({ body: { id: guid }, throwOnError: true })).data;
}

/** POST post_likes {id, likes, isLike}; the answer has the exact counters. */
export async function postLike(guid: string, likes: number, isLike: boolean) {
  return (await engagementPostLikes({ body: { id: guid, likes, isLike }, throwOnError: true })).data;
}

/** POST post_saves {id, saves, isSave}. */
export async function postSave(guid: string, saves: number, isSave: boolean) {
  return (await engagementPostSaves({ body: { id: guid, saves, isSave }, throwOnError: true })).data;
}

/** POST post_shares: anyone may share; `channel` says where (link, facebook, …). */
export async function postShare(guid: string, channel: string) {
  return (await engagementPostShares({ body: { id: guid, channel }, throwOnError: true })).data;
}

/** GET /v2/user-recomendations/similar-media/{guid}: tours like this one. */
export function similarToursQueryOptions(guid: string, language: string) {
  return queryOptions({
    queryKey: toursQueryKeys.similar(guid, language),
    queryFn: async ({ signal }) => {
      const { data } = await discoverySimilarMedia({ path: { tour_id: guid }, query: { limit: 12 }, signal, throwOnError: true });
      return data.filter((card): card is MediaCard => card.type === 'vt' && card.guid !== guid);
    },
    staleTime: 5 * 60_000,
  });
}

// ---------------------------------------------------------------- saved tours

export const SAVED_PAGE_SIZE = 48;

/** GET saved/{userid}: the user's saved tours as media cards, newest save first. */
export function savedToursQueryOptions(userId: number, language: string) {
  return infiniteQueryOptions({
    queryKey: toursQueryKeys.savedPages(userId, language),
    queryFn: async ({ pageParam, signal }): Promise<SavedPage> => {
      const { data } = await toursSavedTours({
        path: { userid: userId },
        query: { limit: SAVED_PAGE_SIZE, offset: pageParam },
        signal,
        throwOnError: true,
      });
      return asSavedPage(data);
    },
    initialPageParam: 0,
    getNextPageParam: (_lastPage, pages) => nextSavedOffset(pages),
  });
}

/** POST post_saves with isSave false: the tour leaves the user's saved tours. */
export async function unsaveTour(guid: string, saves: number) {
  return postSave(guid, Math.max(0, saves - 1), false);
}

// ---------------------------------------------------------------- manage media

export const MANAGE_PAGE_SIZE = 50;

export interface ManageQuery {
  sort: UserTourSort;
  provider: number | null;
  category: number | null;
  subcategory: number | null;
}

/** GET user/{userid}: the owner's tours including drafts and pending ones (spec §2 manage media). */
export function userToursQueryOptions(userId: number, query: ManageQuery) {
  return infiniteQueryOptions({
    queryKey: toursQueryKeys.userToursPages(userId, query),
    queryFn: async ({ pageParam, signal }) => {
      const { data } = await toursUserTours({
        path: { userid: userId },
        query: {
          sort: query.sort,
          // Titles A to Z; otherwise newest first (featured: the featured ones first, in their order).
          order: query.sort === 'title' ? 'asc' : 'desc',
          provider: query.provider,
          category: query.category,
          subcategory: query.subcategory,
          limit: MANAGE_PAGE_SIZE,
          offset: pageParam,
        },
        signal,
        throwOnError: true,
      });
      return data;
    },
    initialPageParam: 0,
    getNextPageParam: (lastPage, _pages, lastOffset) => {
      const next = lastOffset + MANAGE_PAGE_SIZE;
      return lastPage.data.length > 0 && next < lastPage.total_items ? next : undefined;
    },
  });
}

/** PUT {id} {guid, task}: activate, deactivate (move to drafts) or approve (admins). */
export async function runTourTask(guid: string, task: TaskName) {
  return (await toursRunTask({ path: { id: guid }, body: { guid, task }, throwOnError: true })).data;
}

export async function deleteTour(guid: string) {
  return (await toursDeleteTour({ path: { id: guid }, throwOnError: true })).data;
}

/** POST featured-tours: the creator's featured tours in their new order (first is first). */
export async function saveFeaturedOrder(userId: number, guids: readonly string[]) {
  return (await toursSetFeaturedTours({ body: { tours: [...guids], userid: userId, scope: 'creator' }, throwOnError: true })).data;
}

/** The creator's featured tours in their order (favorite_tours of GET creator/{user_id}). */
export function creatorFeaturedQueryOptions(userId: number) {
  return queryOptions({
    queryKey: toursQueryKeys.featured(userId),
    queryFn: async ({ signal }) => {
      const { data } = await toursCreatorTours({ path: { user_id: userId }, query: { limit: 1, includeFavorites: true }, signal, throwOnError: true });
      return data.favorite_tours;
    },
  });
}
