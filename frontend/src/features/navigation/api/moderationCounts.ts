import { queryOptions, useQuery } from '@tanstack/react-query';

import { moderationListPendingItems } from '../../../shared/api/generated/sdk.gen';
import { useSession } from '../../../shared/auth/session';
import { moderationQueryKeys } from '../../../shared/moderation/moderationQueryKeys';

/** Items waiting per kind of spec §4 "Pending approval items". */
export type ModerationCounts = Record<string, number>;

/**
 * The admins' moderation counts: GET /v2/pending/approval-items with no items, only the counts. The
 * moderation-queue push writes every change into the same entry, so the badge moves without a request;
 * the stale time only matters when pushes cannot arrive.
 */
export function moderationCountsQueryOptions() {
  return queryOptions({
    queryKey: moderationQueryKeys.pendingCounts,
    queryFn: async ({ signal }): Promise<ModerationCounts> =>
      (await moderationListPendingItems({ query: { limit: 0 }, signal, throwOnError: true })).data.pending,
    staleTime: 5 * 60_000,
  });
}

export function waitingTotal(counts: ModerationCounts | undefined): number {
  return Object.values(counts ?? {}).reduce((total, count) => total + count, 0);
}

/** How many items wait for an admin; 0 (and no request) for everybody else. */
export function useModerationWaiting(): number {
  const session = useSession();
  const counts = useQuery({ ...moderationCountsQueryOptions(), enabled: session.role === 'admin' });
  return session.role === 'admin' ? waitingTotal(counts.data) : 0;
}
