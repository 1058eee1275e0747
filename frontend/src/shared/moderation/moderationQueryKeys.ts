/** react-query keys of moderation: the navigation menu reads them, the realtime client writes them. */
export const moderationQueryKeys = {
  /** The admins' pending-approval counts per kind (the moderation badges). */
  pendingCounts: ['moderation', 'pending-counts'] as const,
};
