import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';

import { moderationDecidePendingItems } from '../../../shared/api/generated/sdk.gen';
import { moderationQueryKeys } from '../../../shared/moderation/moderationQueryKeys';
import { type DecisionOutcome, type QueuePage, summariseOutcomes, withoutItems } from '../model/queue';

export type Decision = 'approve' | 'reject';

export const REASON_MIN = 3;
export const REASON_MAX = 1000;

export interface DecisionAnswer {
  data: DecisionOutcome[];
  /** The counts after the decision; null when the server answered with an error (one id: 409, 404). */
  pending: { [kind: string]: number } | null;
}

export interface DecisionRequest {
  ids: readonly number[];
  decision: Decision;
  reason: string | null;
}

/**
 * PUT /v2/pending/approval-items: one decision on 1..100 items, an outcome per item. With one id the
 * server answers 409 (decided by another admin) or 404 (gone) instead of a list: the same outcomes,
 * read from the status.
 */
export async function decideItems({ ids, decision, reason }: DecisionRequest): Promise<DecisionAnswer> {
  const answer = await moderationDecidePendingItems({ body: { ids: [...ids], decision, reason } });
  if (answer.data) return answer.data;
  const status = answer.response?.status;
  const only = ids.length === 1 ? ids[0] : undefined;
  if (only !== undefined && (status === 409 || status === 404)) {
    const message = typeof answer.error?.message === 'string' ? answer.error.message : '';
    return { data: [{ id: only, status: status === 409 ? 'conflict' : 'not_found', message }], pending: null };
  }
  throw answer.error ?? new Error(`PUT /v2/pending/approval-items answered ${status ?? 'nothing'}`);
}

/** The decided items leave every loaded page at once; the badge takes the new counts. */
export function applyDecision(queryClient: QueryClient, answer: DecisionAnswer): void {
  const { left } = summariseOutcomes(answer.data);
  const pending = answer.pending ?? undefined;
  queryClient.setQueriesData<QueuePage>({ queryKey: moderationQueryKeys.queues }, (old) => (old ? withoutItems(old, left, pending) : old));
  if (pending) queryClient.setQueryData(moderationQueryKeys.pendingCounts, pending);
  else void queryClient.invalidateQueries({ queryKey: moderationQueryKeys.pendingCounts });
  void queryClient.invalidateQueries({ queryKey: moderationQueryKeys.queues });
}

export function useDecide() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: decideItems,
    onSuccess: (answer) => applyDecision(queryClient, answer),
  });
}
