import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';

import {
  notificationsPostUserMessage,
  toursUserTours,
  usersActivateDeactivate,
  usersGetAdminUserSettings,
  usersGetApiStatistic,
  usersGetBetaTesters,
  usersGetModerationUsers,
  usersPostAdminUserSettings,
  usersSearchUsers,
  usersVtTransfer,
} from '../../../shared/api/generated/sdk.gen';
import type { AdminUserSettingsUpdate, ModerationUserOut } from '../../../shared/api/generated/types.gen';
import { tourQueryKeys } from '../../../shared/tours/tourQueryKeys';
import { usersAdminQueryKeys, type UserListParams } from './queryKeys';

export const USERS_PAGE_SIZE = 20;
export const BETA_PAGE_SIZE = 20;
/** The most tours the transfer dialog lists (the server's page limit); more are moved with "all". */
export const TRANSFER_TOURS_LIMIT = 200;

export type AdminUser = ModerationUserOut;

/** GET /v2/users/get-moderation-users: one page of accounts, newest first. */
export function userListQueryOptions(params: UserListParams) {
  return queryOptions({
    queryKey: usersAdminQueryKeys.userList(params),
    queryFn: async ({ signal }) =>
      (
        await usersGetModerationUsers({
          query: {
            searchPattern: params.search || undefined,
            state: params.state,
            role: params.role ?? undefined,
            limit: USERS_PAGE_SIZE,
            offset: params.offset,
          },
          signal,
          throwOnError: true,
        })
      ).data,
    placeholderData: keepPreviousData,
  });
}

/** GET /v2/users/search-users: accounts by platform username (the transfer's receiver). */
export function accountSearchQueryOptions(pattern: string) {
  return queryOptions({
    queryKey: usersAdminQueryKeys.accountSearch(pattern),
    queryFn: async ({ signal }) =>
      (await usersSearchUsers({ query: { searchPattern: pattern, limit: 10 }, signal, throwOnError: true })).data.data.data,
    enabled: pattern.length > 0,
    staleTime: 30_000,
  });
}

/** GET /v2/users/admin-user-settings. */
export function userSettingsQueryOptions(userid: number) {
  return queryOptions({
    queryKey: usersAdminQueryKeys.settings(userid),
    queryFn: async ({ signal }) => (await usersGetAdminUserSettings({ query: { userid }, signal, throwOnError: true })).data.data,
  });
}

/** GET /v2/virtualtours/user/{userid}: every tour of an account, drafts and pending ones included. */
export function ownedToursQueryOptions(userid: number) {
  return queryOptions({
    queryKey: usersAdminQueryKeys.ownedTours(userid),
    queryFn: async ({ signal }) =>
      (await toursUserTours({ path: { userid }, query: { status: 'all', limit: TRANSFER_TOURS_LIMIT }, signal, throwOnError: true })).data,
  });
}

/** GET /v2/users/get-beta-testers with the questionnaire answers. */
export function betaTestersQueryOptions(search: string, offset: number) {
  return queryOptions({
    queryKey: usersAdminQueryKeys.betaTesters({ search, offset }),
    queryFn: async ({ signal }) =>
      (await usersGetBetaTesters({ query: { searchPattern: search || undefined, limit: BETA_PAGE_SIZE, offset }, signal, throwOnError: true })).data,
    placeholderData: keepPreviousData,
  });
}

/** GET /v2/users/get-api-statistic: the platform's usage per UTC day of the range. */
export function apiStatisticQueryOptions(from: string, to: string) {
  return queryOptions({
    queryKey: usersAdminQueryKeys.apiStatistic({ from, to }),
    queryFn: async ({ signal }) =>
      (await usersGetApiStatistic({ query: { date_from: from, date_to: to }, signal, throwOnError: true })).data.data,
    placeholderData: keepPreviousData,
  });
}

/** POST /v2/users/admin-user-activate-deactivate (spec §4 cascade). */
export function useSetAccountActive() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ userid, active }: { userid: number; active: boolean }) =>
      (await usersActivateDeactivate({ body: { userid, is_active: active }, throwOnError: true })).data,
    onSettled: async (_answer, _error, { userid }) => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: usersAdminQueryKeys.users }),
        queryClient.invalidateQueries({ queryKey: usersAdminQueryKeys.settings(userid) }),
        // Its tours moved to drafts (or back into the owner's drafts).
        queryClient.invalidateQueries({ queryKey: tourQueryKeys.all }),
      ]);
    },
  });
}

/** POST /v2/users/admin-user-settings: only the changed fields travel. */
export function useSaveUserSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: AdminUserSettingsUpdate) => (await usersPostAdminUserSettings({ body, throwOnError: true })).data,
    onSuccess: (answer) => queryClient.setQueryData(usersAdminQueryKeys.settings(answer.data.userid), answer.data),
    onSettled: () => queryClient.invalidateQueries({ queryKey: usersAdminQueryKeys.users }),
  });
}

/** POST /v2/notifications/user-message: an in-app notification to one account. */
export function useSendUserMessage() {
  return useMutation({
    mutationFn: async (body: { userid: number; title: string; message: string }) =>
      (await notificationsPostUserMessage({ body, throwOnError: true })).data,
  });
}

/** PUT /v2/users/vt-transfer: the chosen tours (or every one) of one account to another. */
export function useTransferTours() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: { from_userid: number; to_userid: number; tours: string[] | null }) =>
      (await usersVtTransfer({ body, throwOnError: true })).data,
    onSettled: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: usersAdminQueryKeys.users }),
        queryClient.invalidateQueries({ queryKey: tourQueryKeys.all }),
      ]);
    },
  });
}
