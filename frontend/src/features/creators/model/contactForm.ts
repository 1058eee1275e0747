import { validateEmail } from '../../../shared/validation/account';

/** The contact form of a creator profile (spec §2, §5 "contact message minimum {n} letters"). */
export interface ContactValues {
  name: string;
  email: string;
  subject: string;
  message: string;
}

/** The server's minimum (app/creators/contact.py): letters, not characters. */
export const MESSAGE_MIN_LETTERS = 20;
export const MESSAGE_MAX = 4000;

export type ContactErrorKey = 'auth.errors.required' | 'auth.errors.email' | 'creatorContact.errors.short';

export function lettersIn(text: string): number {
  return [...text].filter((char) => /\p{L}/u.test(char)).length;
}

export function validateContact(values: ContactValues): Partial<Record<keyof ContactValues, ContactErrorKey>> {
  const errors: Partial<Record<keyof ContactValues, ContactErrorKey>> = {};
  if (!values.name.trim()) errors.name = 'auth.errors.required';
  const email = validateEmail(values.email);
  if (email === 'auth.errors.required' || email === 'auth.errors.email') errors.email = email;
  if (lettersIn(values.message) < MESSAGE_MIN_LETTERS) errors.message = 'creatorContact.errors.short';
  return errors;
}
