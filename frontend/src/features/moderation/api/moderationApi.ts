import { keepPreviousData, queryOptions } from '@tanstack/react-query';

import { moderationGetApprovalItem, moderationListPendingItems, usersSendMail } from '../../../shared/api/generated/sdk.gen';
import type { ApprovalItemDetail, ApprovalKind, PendingItemOut } from '../../../shared/api/generated/types.gen';
import { moderationQueryKeys } from '../../../shared/moderation/moderationQueryKeys';
import type { QueuePage } from '../model/queue';

export const PAGE_SIZE = 20;

export type ModerationItem = PendingItemOut;
export type ItemDetail = ApprovalItemDetail;

export interface QueueParams {
  /** The kinds of the tab or of the kind filter; null: every kind. */
  kinds: readonly ApprovalKind[] | null;
  search: string;
  limit: number;
  offset: number;
}

/** One page of the queue (GET /v2/pending/approval-items), oldest first, with the counts per kind. */
export function queueQueryOptions(params: QueueParams) {
  return queryOptions({
    queryKey: moderationQueryKeys.queue(params),
    queryFn: async ({ signal }): Promise<QueuePage<ModerationItem>> =>
      (
        await moderationListPendingItems({
          query: {
            kind: params.kinds ? [...params.kinds] : undefined,
            search: params.search || undefined,
            limit: params.limit,
            offset: params.offset,
          },
          signal,
          throwOnError: true,
        })
      ).data,
    placeholderData: keepPreviousData,
    // Pushes keep it current; a refetch on focus or after a lost connection covers a missed one.
    staleTime: 30_000,
  });
}

/** One item with its published and proposed versions (GET /pending-api/v1/pending/approval-item). */
export function itemDetailQueryOptions(id: number) {
  return queryOptions({
    queryKey: moderationQueryKeys.item(id),
    queryFn: async ({ signal }): Promise<ItemDetail> => (await moderationGetApprovalItem({ query: { id }, signal, throwOnError: true })).data,
    staleTime: 10_000,
  });
}

/** An admin's mail to a media owner (GET /v2/users/send-mail: the spec's call, a GET). */
export async function sendOwnerMail(userid: number, subject: string, text: string) {
  return (await usersSendMail({ query: { userid, subject, text }, throwOnError: true })).data;
}
