import { queryOptions } from '@tanstack/react-query';

import { classificationsListCategories } from '../../../shared/api/generated/sdk.gen';

export function categoriesQueryOptions() {
  return queryOptions({
    queryKey: ['classifications', 'categories'],
    queryFn: async ({ signal }) => (await classificationsListCategories({ signal, throwOnError: true })).data.data,
    // Categories change when an admin edits them: rare enough to keep them for ten minutes.
    staleTime: 10 * 60_000,
  });
}
