/** The help tool's form rules: the same as the server's (app/support), so most mistakes show before sending. */

export const TITLE_MAX = 255;
export const DESCRIPTION_MAX = 4000;
export const NAME_MAX = 100;
export const EMAIL_MAX = 320;
export const SUBJECT_MAX = 150;
export const MESSAGE_MAX = 4000;
export const MESSAGE_MIN_LETTERS = 20;
export const SCREENSHOTS_MAX = 5;

export type FieldError = 'required' | 'tooLong' | 'minLetters';
export type FieldErrors<Field extends string> = Partial<Record<Field, FieldError>>;

export function textError(value: string, max: number, required = true): FieldError | undefined {
  if (required && value.trim() === '') return 'required';
  return value.length > max ? 'tooLong' : undefined;
}

/** Letters in any alphabet, as the server counts them. */
export function lettersIn(text: string): number {
  return (text.match(/\p{L}/gu) ?? []).length;
}

function compact<Field extends string>(errors: Record<Field, FieldError | undefined>): FieldErrors<Field> {
  return Object.fromEntries(Object.entries(errors).filter((entry) => entry[1] !== undefined)) as FieldErrors<Field>;
}

export interface ContactDraft {
  name: string;
  email: string;
  subject: string;
  message: string;
}

export function validateContact(draft: ContactDraft): FieldErrors<keyof ContactDraft> {
  const messageError = textError(draft.message, MESSAGE_MAX) ?? (lettersIn(draft.message) < MESSAGE_MIN_LETTERS ? 'minLetters' : undefined);
  return compact({
    name: textError(draft.name, NAME_MAX),
    email: textError(draft.email, EMAIL_MAX),
    subject: textError(draft.subject, SUBJECT_MAX, false),
    message: messageError,
  });
}

export interface ReportDraft {
  title: string;
  description: string;
}

export function validateBugReport(draft: ReportDraft): FieldErrors<keyof ReportDraft> {
  return compact({ title: textError(draft.title, TITLE_MAX), description: textError(draft.description, DESCRIPTION_MAX) });
}

export function validateFeatureRequest(draft: ReportDraft): FieldErrors<keyof ReportDraft> {
  return compact({ title: textError(draft.title, TITLE_MAX), description: textError(draft.description, DESCRIPTION_MAX, false) });
}
