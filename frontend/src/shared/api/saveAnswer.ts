/**
 * Reading a save's answer (the media and ad forms): its message and its failing fields. Apart from
 * apiError.ts, which the feed's entry loads, so these stay in the forms' lazy chunks.
 */

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** The server's message in an answer's body, or null when it has none worth showing. */
export function answerMessage(body: unknown): string | null {
  return isRecord(body) && typeof body.message === 'string' && body.message.trim() ? body.message : null;
}

/**
 * A 400's failing fields renamed to the form's fields (`formFieldOf`: server name → form name),
 * the first message of each kept. Pydantic names nested fields with dots (tags.3.id): the form
 * shows those on the field the path starts with.
 */
export function formFieldErrorsOf(fields: Record<string, string>, formFieldOf: Readonly<Record<string, string>>): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const [field, message] of Object.entries(fields)) {
    const formField = formFieldOf[field] ?? formFieldOf[field.split('.')[0] ?? ''];
    if (formField && !(formField in errors)) errors[formField] = message;
  }
  return errors;
}
