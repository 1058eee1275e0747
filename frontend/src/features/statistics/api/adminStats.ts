import { keepPreviousData, queryOptions } from '@tanstack/react-query';

import { adsAdminStats, creatorsAdminStats, toursAdminStats, usersGetAdminStats, vendorsAdminStats } from '../../../shared/api/generated/sdk.gen';
import type { DailySeries } from '../../../shared/api/generated/types.gen';
import type { DayRange } from '../../../shared/stats/range';
import { type Domain, domainStats, type DomainStats } from '../model/series';
import { statisticsQueryKeys } from './queryKeys';

interface Answer {
  total: number;
  daily: DailySeries;
}

type Fetcher = (query: { date_from: string; date_to: string }, signal: AbortSignal) => Promise<Answer>;

/** GET admin-stats of each domain (tours answer without the `data` wrapper the others have). */
const FETCHERS: Record<Domain, Fetcher> = {
  users: async (query, signal) => (await usersGetAdminStats({ query, signal, throwOnError: true })).data.data,
  tours: async (query, signal) => (await toursAdminStats({ query, signal, throwOnError: true })).data,
  creators: async (query, signal) => (await creatorsAdminStats({ query, signal, throwOnError: true })).data.data,
  vendors: async (query, signal) => (await vendorsAdminStats({ query, signal, throwOnError: true })).data.data,
  ads: async (query, signal) => (await adsAdminStats({ query, signal, throwOnError: true })).data,
};

/** One domain's totals and daily series over a range of UTC days. */
export function adminStatsQueryOptions(domain: Domain, range: DayRange) {
  return queryOptions({
    queryKey: statisticsQueryKeys.domain(domain, range),
    queryFn: async ({ signal }): Promise<DomainStats> => {
      const answer = await FETCHERS[domain]({ date_from: range.from, date_to: range.to }, signal);
      return domainStats(domain, answer.total, answer.daily);
    },
    // A new range keeps the figures of the last one on screen (dimmed) until its own arrive.
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
}
