import { useQuery } from '@tanstack/react-query';

import { usersUsersInfoCheck } from '../../../shared/api/generated/sdk.gen';
import { useDebouncedValue } from '../../../shared/timing/useDebouncedValue';
import { shouldCheckUsername, validateUsername } from '../../../shared/validation/account';
import { settingsQueryKeys } from '../api/queryKeys';

/** Wait this long after the last keystroke before asking the server. */
export const USERNAME_CHECK_DEBOUNCE_MS = 400;

export type UsernameAvailability =
  | { status: 'idle' }
  | { status: 'checking' }
  | { status: 'available' }
  | { status: 'taken' }
  | { status: 'rejected'; message: string };

/** Spec §5: asked only for a well-formed name longer than 4 characters that differs from the current one. */
export function needsAvailabilityCheck(value: string, current: string | null): boolean {
  return shouldCheckUsername(value, current) && validateUsername(value) === null;
}

/** The live availability of a platform username being typed in the settings form. */
export function useUsernameAvailability(value: string, current: string | null): UsernameAvailability {
  const { debounced, waiting } = useDebouncedValue(value, USERNAME_CHECK_DEBOUNCE_MS);
  const wanted = needsAvailabilityCheck(debounced, current);
  const check = useQuery({
    queryKey: settingsQueryKeys.usernameCheck(debounced),
    queryFn: async ({ signal }) =>
      (await usersUsersInfoCheck({ query: { platform_username: debounced }, signal, throwOnError: true })).data,
    enabled: wanted,
    staleTime: 30_000,
    retry: false,
  });
  if (!needsAvailabilityCheck(value, current)) return { status: 'idle' };
  if (waiting || check.isPending) return { status: 'checking' };
  // An unreachable check must not block the form: the server checks again on save.
  if (check.isError) return { status: 'idle' };
  const rejection = check.data.fields?.platform_username;
  if (rejection) return { status: 'rejected', message: rejection };
  return check.data.platform_username_available === false ? { status: 'taken' } : { status: 'available' };
}
