import { fieldErrors } from '../../../shared/api/apiError';
import { answerMessage, formFieldErrorsOf } from '../../../shared/api/saveAnswer';

/**
 * What the ad form says after a save (app/ads/router.py): 201 saved, then either waiting for an
 * administrator's approval (`pending`: every new ad of a non-admin, spec §4), kept as a draft, or
 * published at once (an admin's); 200 an edit of a published ad that waits while the old version
 * stays; anything else failed, with the server's message and the fields it names (400, 409 link).
 */
export type AdSaveOutcome =
  | { kind: 'pending' }
  | { kind: 'editPending' }
  | { kind: 'draft' }
  | { kind: 'published' }
  | { kind: 'failed'; message: string | null; fields: Record<string, string> };

/** The parts of a 201 that tell where the ad went. */
interface SavedAnswer {
  pending?: unknown;
  data?: { status?: unknown } | null;
}

export function adSaveOutcome(status: number, body: unknown): AdSaveOutcome {
  const answer = typeof body === 'object' && body !== null ? (body as SavedAnswer) : null;
  if (status === 200) return { kind: 'editPending' };
  if (status === 201) {
    if (answer?.pending === true) return { kind: 'pending' };
    return answer?.data?.status === 'draft' ? { kind: 'draft' } : { kind: 'published' };
  }
  return { kind: 'failed', message: answerMessage(body), fields: fieldErrors(body) };
}

/** Server field names (AdWrite, AdOnBehalfWrite) → the form's fields, to show a 400's reasons in place. */
const FORM_FIELD_OF: Record<string, string> = {
  link: 'link',
  title: 'title',
  description: 'description',
  preview_picture: 'previewPicture',
  tags: 'tags',
  is_active: 'isActive',
  userid: 'onBehalfOf',
  platform_username: 'onBehalfOf',
};

export function adFieldErrors(fields: Record<string, string>): Record<string, string> {
  return formFieldErrorsOf(fields, FORM_FIELD_OF);
}
