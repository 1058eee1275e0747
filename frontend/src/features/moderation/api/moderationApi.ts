import { keepPreviousData, queryOptions } from '@tanstack/react-query';

import { client } from '../../../shared/api/generated/client.gen';
import { moderationListPendingItems, usersSendMail } from '../../../shared/api/generated/sdk.gen';
import type { ApprovalKind, PendingItemOut } from '../../../shared/api/generated/types.gen';
import { moderationQueryKeys } from '../../../shared/moderation/moderationQueryKeys';
import type { QueuePage } from '../model/queue';
import type { ItemSummary } from '../model/summary';

export const PAGE_SIZE = 20;

/** An item of the queue; `summary` arrives with the approvals contract (wt-approvals). */
export type ModerationItem = PendingItemOut & { summary?: Partial<ItemSummary> | null };

export interface QueueParams {
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
          query: { kind: params.kinds?.length === 1 ? params.kinds[0] : undefined, limit: params.limit, offset: params.offset },
          signal,
          throwOnError: true,
        })
      ).data,
    placeholderData: keepPreviousData,
    // Pushes keep it current; a refetch on focus covers a lost connection.
    staleTime: 30_000,
  });
}

/** An admin's mail to a media owner (GET /v2/users/send-mail: the spec's call, a GET). */
export async function sendOwnerMail(userid: number, subject: string, text: string) {
  return (await usersSendMail({ query: { userid, subject, text }, throwOnError: true })).data;
}

export interface ItemDetail {
  id: number;
  kind: ApprovalKind;
  status: string;
  userid: number | null;
  username: string | null;
  created_at: string;
  reviewed_by: number | null;
  reviewed_at: string | null;
  review_note: string | null;
  summary: { title: string | null; username: string | null; preview_picture: string | null; link: string | null } | null;
  current: { [key: string]: unknown } | null;
  proposed: { [key: string]: unknown };
}

/** One item with its published and proposed versions (GET /pending-api/v1/pending/approval-item). */
export function itemDetailQueryOptions(id: number) {
  return queryOptions({
    queryKey: moderationQueryKeys.item(id),
    queryFn: async ({ signal }): Promise<ItemDetail> =>
      (
        await client.get<{ 200: ItemDetail }, unknown, true>({
          url: '/pending-api/v1/pending/approval-item',
          security: [{ scheme: 'bearer', type: 'http' }],
          query: { id },
          signal,
          throwOnError: true,
        })
      ).data,
    staleTime: 10_000,
  });
}
