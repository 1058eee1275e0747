import { hasProfanity } from './profanity';

/**
 * Account rules shared with the server (spec §5), used by sign-up, password reset and the settings
 * modal. Each rule returns an i18n key under `auth.errors` or null, so the same rules speak English
 * and Russian.
 */
export type ValidationKey =
  | 'auth.errors.required'
  | 'auth.errors.email'
  | 'auth.errors.passwordLength'
  | 'auth.errors.passwordSymbols'
  | 'auth.errors.passwordMatch'
  | 'auth.errors.phone'
  | 'auth.errors.name'
  | 'auth.errors.usernameShort'
  | 'auth.errors.usernameLong'
  | 'auth.errors.usernameSymbols'
  | 'auth.errors.profanity';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
// 6–16 characters drawn only from Latin letters, digits and !@#$%^&*, with at least one of each kind.
const PASSWORD_ALLOWED = /^[A-Za-z0-9!@#$%^&*]*$/;
const NAME = /^[\p{L}][\p{L}' .-]*$/u;
const USERNAME = /^[A-Za-z0-9_.-]+$/;

export function validateRequired(value: string): ValidationKey | null {
  return value.trim() === '' ? 'auth.errors.required' : null;
}

export function validateEmail(value: string): ValidationKey | null {
  return validateRequired(value) ?? (EMAIL.test(value.trim()) ? null : 'auth.errors.email');
}

export function validatePassword(value: string): ValidationKey | null {
  if (value === '') return 'auth.errors.required';
  if (value.length < 6 || value.length > 16) return 'auth.errors.passwordLength';
  const complete = /\d/.test(value) && /[A-Za-z]/.test(value) && /[!@#$%^&*]/.test(value);
  return PASSWORD_ALLOWED.test(value) && complete ? null : 'auth.errors.passwordSymbols';
}

export function validateRepeatPassword(value: string, password: string): ValidationKey | null {
  return value === password ? null : 'auth.errors.passwordMatch';
}

export function validatePhone(value: string): ValidationKey | null {
  return value === '' || /^\d+$/.test(value) ? null : 'auth.errors.phone';
}

export function validateName(value: string): ValidationKey | null {
  return validateRequired(value) ?? (NAME.test(value.trim()) ? null : 'auth.errors.name');
}

export function validateUsername(value: string): ValidationKey | null {
  if (value === '') return 'auth.errors.required';
  if (value.length < 5) return 'auth.errors.usernameShort';
  if (value.length > 25) return 'auth.errors.usernameLong';
  if (!USERNAME.test(value)) return 'auth.errors.usernameSymbols';
  return hasProfanity(value) ? 'auth.errors.profanity' : null;
}

/** Availability is asked of the server only past 4 characters and when the name actually changes (spec §5). */
export function shouldCheckUsername(value: string, current: string | null): boolean {
  return value.length > 4 && value !== current;
}
