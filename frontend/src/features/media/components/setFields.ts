import type { MediaFormValues } from '../model/mediaForm';
import type { MediaForm } from './MediaForm';

/**
 * Set several fields at once, clearing only their own errors: Mantine's setValues would also wipe
 * the errors of every other field (those the server named, say).
 */
export function setFields(form: MediaForm, values: Partial<MediaFormValues>): void {
  for (const [field, value] of Object.entries(values) as [keyof MediaFormValues, MediaFormValues[keyof MediaFormValues]][]) {
    form.setFieldValue(field, value as never);
  }
}
