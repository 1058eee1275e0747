/**
 * Every dictionary row has its English name (`name`, or `camera_name` for a capture device) and its
 * names in the other languages (`translations`, by language code). The server knows English and
 * Russian (app/core/locale.py), so a form edits those two.
 */
export const OTHER_LANGUAGE = 'ru';
export const NAME_MAX = 200;
export const DEVICE_NAME_MAX = 300;
export const DESCRIPTION_MAX = 2000;

export interface NameValues {
  name: string;
  name_ru: string;
}

export function namesOf(row: { translations: Record<string, string> } | null, english: string): NameValues {
  return { name: english, name_ru: row?.translations[OTHER_LANGUAGE] ?? '' };
}

/**
 * The `translations` of a create (the Russian name when one is given) or of an update (only when it
 * changed; an empty name removes it, as the API says).
 */
export function translationsPayload(values: NameValues, original: { translations: Record<string, string> } | null): Record<string, string> | undefined {
  const ru = values.name_ru.trim();
  if (original === null) return ru ? { [OTHER_LANGUAGE]: ru } : undefined;
  return ru === (original.translations[OTHER_LANGUAGE] ?? '') ? undefined : { [OTHER_LANGUAGE]: ru };
}

/** Required name check of a form (the server checks the rest: uniqueness in each language). */
export function nameProblem(value: string): 'required' | null {
  return value.trim() === '' ? 'required' : null;
}

/**
 * The server names a failing field as its body does (`name`, `camera_name`, `translations.ru`,
 * `category_id`, `is_active`…); the forms call the names `name` and `name_ru`.
 */
export function formFieldErrors(fields: Record<string, string>): Record<string, string> {
  const mapped: Record<string, string> = {};
  for (const [field, message] of Object.entries(fields)) {
    const key = field === 'camera_name' ? 'name' : field === `translations.${OTHER_LANGUAGE}` ? 'name_ru' : field.startsWith('translations') ? 'name_ru' : field;
    mapped[key] = message;
  }
  return mapped;
}

/** The fields a form shows; a message for another field is shown above the form instead. */
export function splitFieldErrors(fields: Record<string, string>, shown: readonly string[]): { onFields: Record<string, string>; elsewhere: string[] } {
  const mapped = formFieldErrors(fields);
  const onFields: Record<string, string> = {};
  const elsewhere: string[] = [];
  for (const [field, message] of Object.entries(mapped)) {
    if (shown.includes(field)) onFields[field] = message;
    else elsewhere.push(message);
  }
  return { onFields, elsewhere };
}
