import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';

import {
  classificationsListRankSources,
  creatorsAddRank,
  creatorsCalculateRanks,
  creatorsEditRank,
  creatorsListRanks,
  platformUpdateConfig,
  toursAddRank,
  toursCalculateRanks,
  toursDeleteRank,
  toursEditRank,
  toursListRanks,
} from '../../../shared/api/generated/sdk.gen';
import type { PlatformConfigOut, PlatformConfigUpdate } from '../../../shared/api/generated/types.gen';
import { platformQueryKeys } from '../../../shared/platform/platformQueryKeys';
import { type RankKind, usersAdminQueryKeys } from './queryKeys';

export const RANKS_PAGE_SIZE = 25;
/** The server's bounds of a rank value (RANK_VALUE_LIMIT). */
export const RANK_VALUE_LIMIT = 1_000_000;

/** PUT /v2/config/: the answer becomes the cached config, so the route guard follows at once. */
export function useUpdatePlatformConfig() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: PlatformConfigUpdate) => (await platformUpdateConfig({ body, throwOnError: true })).data,
    onSuccess: (config: PlatformConfigOut) => {
      queryClient.setQueryData(platformQueryKeys.config, config);
      queryClient.setQueryData(platformQueryKeys.appVersion, { gui_version: config.gui_version });
    },
  });
}

/** GET /v2/sources/rank-sources. */
export function rankSourcesQueryOptions() {
  return queryOptions({
    queryKey: usersAdminQueryKeys.rankSources,
    queryFn: async ({ signal }) => (await classificationsListRankSources({ signal, throwOnError: true })).data.data,
    staleTime: 5 * 60_000,
  });
}

/** One rank row, whichever kind: what the table shows. */
export interface RankRow {
  id: number;
  rank_source_id: number;
  rank_source: string;
  /** The tour's guid or the creator's id. */
  target: string;
  name: string;
  value: number;
  position: number | null;
  updated_date: string;
}

export interface RankPage {
  rows: RankRow[];
  total: number;
}

/** GET /v2/virtualtours/ranks or /v2/creators/ranks, highest first. */
export function rankListQueryOptions(kind: RankKind, source: number | null, offset: number) {
  return queryOptions({
    queryKey: usersAdminQueryKeys.rankList(kind, { source, offset }),
    queryFn: async ({ signal }): Promise<RankPage> => {
      const query = { rank_source_id: source ?? undefined, limit: RANKS_PAGE_SIZE, offset };
      if (kind === 'tours') {
        const page = (await toursListRanks({ query, signal, throwOnError: true })).data;
        return {
          total: page.total_items,
          rows: page.data.map((rank) => ({ ...rank, target: rank.guid, name: rank.title })),
        };
      }
      const page = (await creatorsListRanks({ query, signal, throwOnError: true })).data;
      return {
        total: page.total_items,
        rows: page.data.map((rank) => ({ ...rank, target: String(rank.creator_id), name: rank.creator_name })),
      };
    },
    placeholderData: keepPreviousData,
  });
}

export interface RankInput {
  /** Set when editing. */
  id: number | null;
  rank_source_id: number;
  /** The tour's guid or the creator's id (adding only). */
  target: string;
  value: number;
  position: number | null;
}

/** POST (add) or PUT (edit) one rank. */
export function useSaveRank(kind: RankKind) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: RankInput) => {
      const values = { value: input.value, position: input.position };
      if (input.id !== null) {
        const body = { id: input.id, ...values };
        return kind === 'tours' ? (await toursEditRank({ body, throwOnError: true })).data : (await creatorsEditRank({ body, throwOnError: true })).data;
      }
      return kind === 'tours'
        ? (await toursAddRank({ body: { guid: input.target.trim(), rank_source_id: input.rank_source_id, ...values }, throwOnError: true })).data
        : (await creatorsAddRank({ body: { creator_id: Number(input.target), rank_source_id: input.rank_source_id, ...values }, throwOnError: true })).data;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: usersAdminQueryKeys.ranks }),
  });
}

/** DELETE /v2/virtualtours/ranks (creator ranks have no delete call in the spec). */
export function useDeleteTourRank() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) => (await toursDeleteRank({ body: { id }, throwOnError: true })).data,
    onSettled: () => queryClient.invalidateQueries({ queryKey: usersAdminQueryKeys.ranks }),
  });
}

/** POST ranks/calc: one calculation ranks tours and creators. */
export function useCalculateRanks(kind: RankKind) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () =>
      kind === 'tours' ? (await toursCalculateRanks({ throwOnError: true })).data : (await creatorsCalculateRanks({ throwOnError: true })).data,
    onSettled: () => queryClient.invalidateQueries({ queryKey: usersAdminQueryKeys.ranks }),
  });
}
