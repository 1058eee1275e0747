import type { ModerationUserOut } from '../../../shared/api/generated/types.gen';

/** How an account is named on this page: its platform username, else its name, else its e-mail. */
export function displayName(user: Pick<ModerationUserOut, 'platform_username' | 'username' | 'email'>): string {
  return user.platform_username ?? (user.username || user.email);
}
