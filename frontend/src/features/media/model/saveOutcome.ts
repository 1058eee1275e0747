import { fieldErrors } from '../../../shared/api/apiError';
import { answerMessage, formFieldErrorsOf } from '../../../shared/api/saveAnswer';

/**
 * What the form does with the answer to a media save (spec §8 "Media save"):
 * 208 shows 'Error: {server message}'; 200 the pending-edit message; 201 the server message and, when
 * adding, clears the form (§4: a successful add clears it, the address included); 404 opens the
 * pin-location picker so the user can set the coordinates; anything else 'Something went wrong'.
 */
export type SaveOutcome =
  | { kind: 'created'; message: string | null; clearForm: boolean; hashtagsLeftOut: string[] }
  | { kind: 'pending'; hashtagsLeftOut: string[] }
  | { kind: 'duplicate'; message: string }
  | { kind: 'pickLocation' }
  | { kind: 'failed'; message: string | null; fields: Record<string, string> };

export function saveOutcome(status: number, body: unknown, mode: 'add' | 'edit'): SaveOutcome {
  switch (status) {
    case 201:
      return { kind: 'created', message: answerMessage(body), clearForm: mode === 'add', hashtagsLeftOut: hashtagsLeftOut(body) };
    case 200:
      return { kind: 'pending', hashtagsLeftOut: hashtagsLeftOut(body) };
    case 208: {
      const message = answerMessage(body) ?? '';
      // The server may already have prefixed it; never show 'Error: Error: …'.
      return { kind: 'duplicate', message: message.startsWith('Error:') ? message : `Error: ${message}` };
    }
    case 404:
      return { kind: 'pickLocation' };
    default:
      return { kind: 'failed', message: answerMessage(body), fields: fieldErrors(body) };
  }
}

/** Hashtags that name a tag but were not added: the tour had 10 tags already (TourAnswer). */
function hashtagsLeftOut(body: unknown): string[] {
  const value = typeof body === 'object' && body !== null ? (body as { hashtags_left_out?: unknown }).hashtags_left_out : undefined;
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

/** Server field names (spec §3 Media write) → the form's fields, to show a 400's reasons in place. */
const FORM_FIELD_OF: Record<string, string> = {
  link: 'link',
  title: 'title',
  description: 'description',
  media_type_id: 'mediaTypeId',
  category_id: 'categoryId',
  subcategory_id: 'subcategoryId',
  vendor: 'vendorId',
  camera_id: 'cameraId',
  address_str: 'addressStr',
  address_id: 'addressStr',
  coordinate: 'addressStr',
  vt_website: 'vtWebsite',
  preview_picture: 'previewPicture',
  creator_website: 'creatorWebsite',
  third_party_creator: 'thirdPartyCreator',
  tags: 'tags',
  newCategory: 'newCategory',
  platform_username: 'onBehalfOf',
  userid: 'onBehalfOf',
};

export function formFieldErrors(fields: Record<string, string>): Record<string, string> {
  return formFieldErrorsOf(fields, FORM_FIELD_OF);
}
