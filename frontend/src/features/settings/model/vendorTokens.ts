import '../../../shared/i18n/manageTexts'; // this screen's English texts (not in the feed's bundle)
import { errorMessage, fieldErrors } from '../../../shared/api/apiError';
import type { CredentialOut } from '../../../shared/api/generated/types.gen';

/** The longest token id or secret the server takes (app/vendors/schemas.py CredentialIn). */
export const TOKEN_MAX_LENGTH = 200;

export interface TokenValues {
  key: string;
  secret: string;
}

export type TokenErrorKey =
  | 'settings.vendors.errors.keyRequired'
  | 'settings.vendors.errors.secretRequired'
  | 'settings.vendors.errors.noSpaces'
  | 'settings.vendors.errors.tooLong';

/** Client-side checks of a token id or secret before Matterport is asked (the server repeats them). */
export function validateToken(value: string, field: keyof TokenValues): TokenErrorKey | null {
  if (value.trim() === '') return field === 'key' ? 'settings.vendors.errors.keyRequired' : 'settings.vendors.errors.secretRequired';
  if (/\s/.test(value.trim())) return 'settings.vendors.errors.noSpaces';
  if (value.trim().length > TOKEN_MAX_LENGTH) return 'settings.vendors.errors.tooLong';
  return null;
}

/** What the form shows after POST credentials (the server checks the pair with Matterport first). */
export type TokenSaveOutcome =
  | { kind: 'saved'; credential: CredentialOut; message: string }
  /** 400: Matterport refused the pair, or a field is wrong: messages per field. */
  | { kind: 'refused'; message: string | null; fields: Partial<Record<keyof TokenValues, string>> }
  /** 429 / 503: try again later, with the server's reason. */
  | { kind: 'later'; message: string | null }
  | { kind: 'failed'; message: string | null };

export function tokenSaveOutcome(status: number | undefined, body: unknown): TokenSaveOutcome {
  const message = errorMessage(body, '') || null;
  if (status === 200 && isCredentialAnswer(body)) return { kind: 'saved', credential: body.data, message: body.message };
  if (status === 400) {
    const fields = fieldErrors(body);
    const picked: Partial<Record<keyof TokenValues, string>> = {};
    if (fields.key) picked.key = fields.key;
    if (fields.secret) picked.secret = fields.secret;
    return { kind: 'refused', message, fields: picked };
  }
  if (status === 429 || status === 503) return { kind: 'later', message };
  return { kind: 'failed', message };
}

function isCredentialAnswer(body: unknown): body is { message: string; data: CredentialOut } {
  return typeof body === 'object' && body !== null && 'data' in body && 'message' in body;
}

/** A Matterport model id is 11 letters and digits; a link names it as `?m=…` (the server decides). */
export function looksLikeModelKey(value: string): boolean {
  const text = value.trim();
  return /^[A-Za-z0-9]{11}$/.test(text) || /[?&]m=[A-Za-z0-9]{11}/.test(text) || /\/space\/[A-Za-z0-9]{11}/.test(text);
}
