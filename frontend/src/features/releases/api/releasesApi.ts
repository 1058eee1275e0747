import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';

import { releasesDeleteReleaseNote, releasesListReleaseNotes, releasesSaveReleaseNote } from '../../../shared/api/generated/sdk.gen';
import type { ReleaseIn, ReleaseOut } from '../../../shared/api/generated/types.gen';

export type Release = ReleaseOut;

/** The most releases the Updates screen shows (the server's page limit): about four years of releases. */
export const RELEASES_SHOWN = 100;

export const releaseQueryKeys = {
  all: ['releases'] as const,
  list: ['releases', 'list'] as const,
};

/** GET /v2/releases/release-notes: newest first. */
export function releasesQueryOptions() {
  return queryOptions({
    queryKey: releaseQueryKeys.list,
    queryFn: async ({ signal }) =>
      (await releasesListReleaseNotes({ query: { limit: RELEASES_SHOWN }, signal, throwOnError: true })).data.data,
    staleTime: 60_000,
  });
}

/** POST /v2/releases/release-notes: create (no id) or replace a release; the newest one announces its version. */
export function useSaveRelease() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: ReleaseIn) => (await releasesSaveReleaseNote({ body, throwOnError: true })).data.data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: releaseQueryKeys.all }),
  });
}

/** DELETE /v2/releases/release-notes. */
export function useDeleteRelease() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (releaseId: number) =>
      (await releasesDeleteReleaseNote({ query: { release_id: releaseId }, throwOnError: true })).data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: releaseQueryKeys.all }),
  });
}
