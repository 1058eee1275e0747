/** The server's error body (spec §7, ARCHITECTURE "validation errors are 400"): a message and the failing fields. */
export interface ApiError {
  message?: string;
  fields?: Record<string, string>;
  request_id?: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** The server's message when the error carries one, else the fallback the caller chose. */
export function errorMessage(error: unknown, fallback: string): string {
  if (isRecord(error) && typeof error.message === 'string' && error.message.trim() !== '') return error.message;
  return fallback;
}

/** The per-field messages of a 400 answer (`{fields: {name: message}}`), or none. */
export function fieldErrors(error: unknown): Record<string, string> {
  if (!isRecord(error) || !isRecord(error.fields)) return {};
  return Object.fromEntries(
    Object.entries(error.fields).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );
}
