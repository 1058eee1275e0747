/**
 * react-query keys of the platform's own settings. They hold nothing about the visitor, so they are
 * the only answers kept when a user signs out.
 */
export const platformQueryKeys = {
  all: ['platform'] as const,
  config: ['platform', 'config'] as const,
  /** The current front-end version (the realtime client writes pushed versions here). */
  appVersion: ['platform', 'app-version'] as const,
};

/** Whether a cached query is one of the platform's (kept on sign-out). */
export function isPlatformQuery(queryKey: readonly unknown[]): boolean {
  return queryKey[0] === platformQueryKeys.all[0];
}
