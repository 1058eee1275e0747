/** react-query keys of the settings modal. */
export const settingsQueryKeys = {
  /** The user's interests (GET/PUT user-interests). */
  interests: ['user', 'interests'] as const,
  /** Whether a platform username is free. */
  usernameCheck: (username: string) => ['users', 'username-check', username] as const,
};
