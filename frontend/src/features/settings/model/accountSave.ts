import { fieldErrors } from '../../../shared/api/apiError';
import { usersUpdateUserParams } from '../../../shared/api/generated/sdk.gen';
import type { CurrentUserOut, UserParams } from '../../../shared/api/generated/types.gen';

export interface AccountValues {
  first_name: string;
  last_name: string;
  platform_username: string;
  email: string;
  phone: string;
  consent_emails: boolean;
}

export function accountValues(user: CurrentUserOut): AccountValues {
  return {
    first_name: user.first_name,
    last_name: user.last_name,
    platform_username: user.platform_username ?? '',
    email: user.email,
    phone: user.phone ?? '',
    consent_emails: user.consent_emails,
  };
}

/** Spec §5: the email of an account that signs in through Google or Facebook belongs to the provider. */
export function emailEditable(user: CurrentUserOut): boolean {
  return user.auth_system === 'email';
}

/** Only what the user changed goes to the server (an empty phone clears it). */
export function changedParams(user: CurrentUserOut, values: AccountValues): UserParams {
  const before = accountValues(user);
  const params: UserParams = {};
  if (values.first_name.trim() !== before.first_name) params.first_name = values.first_name.trim();
  if (values.last_name.trim() !== before.last_name) params.last_name = values.last_name.trim();
  if (values.platform_username !== before.platform_username) params.platform_username = values.platform_username;
  if (emailEditable(user) && values.email.trim() !== before.email) params.email = values.email.trim();
  if (values.phone !== before.phone) params.phone = values.phone;
  if (values.consent_emails !== before.consent_emails) params.consent_emails = values.consent_emails;
  return params;
}

/** Spec §4 "Account save" and §8: 200 saved, 201 saved but waiting for approval, 409 the server's message, else 'user saving error'. */
export type AccountSaveResult =
  | { kind: 'saved'; user: CurrentUserOut }
  | { kind: 'pending'; user: CurrentUserOut; pendingFields: string[] }
  | { kind: 'conflict'; message: string }
  | { kind: 'failed'; fields: Record<string, string> };

export async function saveAccount(userId: number, params: UserParams): Promise<AccountSaveResult> {
  const { data, error, response } = await usersUpdateUserParams({ body: { userid: userId, params } });
  const status = response?.status;
  if (data && status === 201) return { kind: 'pending', user: data.data, pendingFields: data.pending_fields ?? [] };
  if (data) return { kind: 'saved', user: data.data };
  if (status === 409) {
    const message = typeof error === 'object' && error !== null && 'message' in error ? String(error.message) : '';
    return message ? { kind: 'conflict', message } : { kind: 'failed', fields: {} };
  }
  return { kind: 'failed', fields: fieldErrors(error) };
}
