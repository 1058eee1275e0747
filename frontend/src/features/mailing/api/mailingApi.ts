import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';

import { mailingMembersDiff, mailingMembersSync, mailingMembersSyncState, mailingPing } from '../../../shared/api/generated/sdk.gen';
import type { SyncRunOut, SyncStateOut } from '../../../shared/api/generated/types.gen';
import { newerSyncState } from '../model/syncRun';
import { mailingQueryKeys } from './queryKeys';

/** People per page on each side of the diff. */
export const DIFF_PAGE_SIZE = 20;

/** GET /v2/mailing-list/ping: the provider answers, takes the key and knows the list. */
export function pingQueryOptions() {
  return queryOptions({
    queryKey: mailingQueryKeys.ping,
    queryFn: async ({ signal }) => (await mailingPing({ signal, throwOnError: true })).data,
  });
}

/** GET /v2/mailing-list/members-diff at one offset (both sides are paged by it). */
export function membersDiffQueryOptions(offset: number) {
  return queryOptions({
    queryKey: mailingQueryKeys.diffPage(offset),
    queryFn: async ({ signal }) => (await mailingMembersDiff({ query: { limit: DIFF_PAGE_SIZE, offset }, signal, throwOnError: true })).data,
    placeholderData: keepPreviousData,
  });
}

export function isRunning(run: SyncRunOut | null | undefined): boolean {
  return run?.status === 'running';
}

/**
 * GET /v2/mailing-list/members-sync: the latest run, read when the page opens; its progress then
 * arrives as pushes (useSyncLive). A read or push about the same run that says less than the one
 * shown is older and kept out (newerSyncState).
 */
export function syncStateQueryOptions() {
  return queryOptions({
    queryKey: mailingQueryKeys.syncState,
    queryFn: async ({ signal }) => (await mailingMembersSyncState({ signal, throwOnError: true })).data,
    structuralSharing: newerSyncState,
  });
}

/** POST /v2/mailing-list/members-sync: starts a sync, or resumes the one that stopped. */
export function useStartSync() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => (await mailingMembersSync({ throwOnError: true })).data,
    onSuccess: (state: SyncStateOut) => queryClient.setQueryData(mailingQueryKeys.syncState, state),
  });
}
