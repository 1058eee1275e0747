import { queryOptions } from '@tanstack/react-query';

import { usersSearchUsers } from '../api/generated/sdk.gen';
import { userQueryKeys } from './userQueryKeys';

/** Platform usernames matching a pattern (spec §6 'on behalf of'; admins find an owner's media by it). */
export function userSearchQueryOptions(pattern: string) {
  return queryOptions({
    queryKey: userQueryKeys.search(pattern),
    queryFn: async ({ signal }) => (await usersSearchUsers({ query: { searchPattern: pattern, limit: 10 }, signal, throwOnError: true })).data.data.data,
    staleTime: 30_000,
  });
}
