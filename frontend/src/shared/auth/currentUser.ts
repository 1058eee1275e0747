import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';

import { usersGetCurrentUser } from '../api/generated/sdk.gen';
import type { CurrentUserOut } from '../api/generated/types.gen';
import { writeJson, STORAGE_KEYS } from '../storage/localStore';
import { userQueryKeys } from '../users/userQueryKeys';
import { useSession } from './session';

/** GET /v2/users/ (spec §7): the signed-in user's account, also kept locally as `userData` (spec §3). */
export function currentUserQueryOptions() {
  return queryOptions({
    queryKey: userQueryKeys.current,
    queryFn: async ({ signal }) => {
      const { data } = await usersGetCurrentUser({ signal, throwOnError: true });
      writeJson(STORAGE_KEYS.userData, data);
      return data;
    },
    staleTime: 60_000,
  });
}

/** The current user while signed in; disabled (and empty) for guests. */
export function useCurrentUser() {
  const session = useSession();
  return useQuery({ ...currentUserQueryOptions(), enabled: session.signedIn });
}

/** After a save the server answers with the updated account: keep cache and `userData` in step. */
export function storeCurrentUser(queryClient: QueryClient, user: CurrentUserOut): void {
  queryClient.setQueryData(userQueryKeys.current, user);
  writeJson(STORAGE_KEYS.userData, user);
}
