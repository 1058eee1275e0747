/** react-query keys of the administrators' mailing-list page. */
export const mailingQueryKeys = {
  all: ['mailing'] as const,
  ping: ['mailing', 'ping'] as const,
  diff: ['mailing', 'members-diff'] as const,
  diffPage: (offset: number) => ['mailing', 'members-diff', offset] as const,
  syncState: ['mailing', 'members-sync'] as const,
};
