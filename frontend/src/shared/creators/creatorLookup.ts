import { queryOptions } from '@tanstack/react-query';

import { discoveryFilteredGrid } from '../api/generated/sdk.gen';
import type { CreatorCard } from '../api/generated/types.gen';
import { creatorQueryKeys } from './creatorQueryKeys';

const LOOKUP_LIMIT = 10;

/**
 * The creator behind a `/{creatorName}/grid` or `/map` address (spec §2 creator-scoped routes): the
 * creators grid searched by @name, keeping only the exact platform name. null when there is none.
 */
export function creatorByNameQueryOptions(creatorName: string) {
  const wanted = creatorName.trim().toLowerCase();
  return queryOptions({
    queryKey: creatorQueryKeys.byName(wanted),
    queryFn: async ({ signal }): Promise<CreatorCard | null> => {
      const answer = await discoveryFilteredGrid({
        query: { mode: 'creators', searchPattern: `@${wanted}`, limit: LOOKUP_LIMIT, offset: 0 },
        signal,
        throwOnError: true,
      });
      const creators = answer.data.data.filter((card): card is CreatorCard & { type: 'creator' } => card.type === 'creator');
      return creators.find((card) => card.platform_username?.toLowerCase() === wanted) ?? null;
    },
    enabled: wanted !== '',
    staleTime: 5 * 60_000,
  });
}
