import { queryOptions, useQuery } from '@tanstack/react-query';

import { platformGetAppVersion, platformGetConfig } from '../api/generated/sdk.gen';
import { platformQueryKeys } from './platformQueryKeys';

/** Spec §4/§9: the app asks for the current front-end version every 15 minutes. */
export const VERSION_CHECK_INTERVAL_MS = 900_000;

export function platformConfigQueryOptions() {
  return queryOptions({
    queryKey: platformQueryKeys.config,
    queryFn: async ({ signal }) => (await platformGetConfig({ signal, throwOnError: true })).data,
    // The route guard asks on every navigation; a minute of reuse keeps that cheap.
    staleTime: 60_000,
    // One quick retry, so a network failure reaches the crash page in about a second.
    retry: 1,
    retryDelay: 500,
  });
}

export function appVersionQueryOptions() {
  return queryOptions({
    queryKey: platformQueryKeys.appVersion,
    queryFn: async ({ signal }) => (await platformGetAppVersion({ signal, throwOnError: true })).data,
    refetchInterval: VERSION_CHECK_INTERVAL_MS,
    staleTime: VERSION_CHECK_INTERVAL_MS,
  });
}

export function usePlatformConfig() {
  return useQuery(platformConfigQueryOptions());
}
