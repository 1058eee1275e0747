import { queryOptions, useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';

import { creatorsIsPendingCreator } from '../api/generated/sdk.gen';
import type { PendingCreatorAnswer } from '../api/generated/types.gen';
import { renewBearerToken } from '../api/tokenRenewal';
import { useSession } from '../auth/session';
import { creatorQueryKeys } from './creatorQueryKeys';

/**
 * GET /v2/creators/is-pending-creator: whether the signed-in user's new creator profile (or an edit
 * of it) waits for an administrator. The menu shows the waiting state instead of offering to become
 * a creator again; asked afresh whenever the menu or the dialog opens (staleTime 0).
 */
export function pendingCreatorQueryOptions(userKey: string) {
  return queryOptions({
    queryKey: creatorQueryKeys.pending(userKey),
    queryFn: async ({ signal }): Promise<PendingCreatorAnswer> => (await creatorsIsPendingCreator({ signal, throwOnError: true })).data,
    staleTime: 0,
    retry: 1,
  });
}

/**
 * The pending state of a signed-in user who is not (yet, as far as the token says) a creator. When
 * the answer names a published profile the token does not carry yet (an admin approved it since
 * sign-in), the token is renewed: its claims then make the user a creator (spec §4, identity from
 * the token's claims), and the menu offers "Creator Profile".
 */
export function usePendingCreator(enabled: boolean) {
  const session = useSession();
  const userKey = session.claims?.sub ?? 'user';
  const wanted = enabled && session.signedIn && session.role === 'user';
  const pending = useQuery({ ...pendingCreatorQueryOptions(userKey), enabled: wanted });
  const approvedSince = wanted && pending.data?.creator_id != null && session.creatorId === null;
  useEffect(() => {
    if (approvedSince) void renewBearerToken();
  }, [approvedSince]);
  return pending;
}
