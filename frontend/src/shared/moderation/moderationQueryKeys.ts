/** react-query keys of moderation: the navigation menu reads them, the realtime client writes them. */
export const moderationQueryKeys = {
  /** The admins' pending-approval counts per kind (the moderation badges). */
  pendingCounts: ['moderation', 'pending-counts'] as const,
  /** Every loaded page of the moderation screen's queue (a push is merged into each). */
  queues: ['moderation', 'queue'] as const,
  queue: (params: { kinds: readonly string[] | null; search: string; limit: number; offset: number }) =>
    ['moderation', 'queue', params] as const,
  /** One item with its current and proposed versions (the detail's diff). */
  item: (id: number) => ['moderation', 'item', id] as const,
};
