import { infiniteQueryOptions } from '@tanstack/react-query';

import { discoveryPopularTags } from '../../../shared/api/generated/sdk.gen';
import type { PopularTagsPage } from '../../../shared/api/generated/types.gen';

/** Tags asked for at a time on the Popular tags page. */
export const POPULAR_TAGS_PAGE_SIZE = 48;

export const popularTagsQueryKeys = {
  all: ['discovery', 'popular-tags'] as const,
  list: (language: string) => [...popularTagsQueryKeys.all, language] as const,
};

export function nextTagsOffset(lastPage: PopularTagsPage): number | undefined {
  const next = lastPage.offset + lastPage.limit;
  return lastPage.data.length > 0 && next < lastPage.total_items ? next : undefined;
}

/** GET popular-tags, page by page; names come in the caller's language, so it is in the key. */
export function popularTagsQueryOptions(language: string) {
  return infiniteQueryOptions({
    queryKey: popularTagsQueryKeys.list(language),
    queryFn: async ({ pageParam, signal }) =>
      (await discoveryPopularTags({ query: { limit: POPULAR_TAGS_PAGE_SIZE, offset: pageParam }, signal, throwOnError: true })).data,
    initialPageParam: 0,
    getNextPageParam: nextTagsOffset,
  });
}
