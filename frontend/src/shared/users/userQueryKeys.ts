/** react-query keys of user accounts read by several features. */
export const userQueryKeys = {
  /** GET /v2/users/: the signed-in user's account (the guide and the settings update it in place). */
  current: ['user', 'current'] as const,
  /** Platform usernames matching a pattern ('on behalf of' in the media form, the owner in manage media). */
  search: (pattern: string) => ['users', 'search', pattern] as const,
};
