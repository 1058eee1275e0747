/**
 * What the form does with the answer to a media save (spec §8 "Media save"):
 * 208 shows 'Error: {server message}'; 200 the pending-edit message; 201 the server message and, when
 * adding, clears the form (§4: a successful add clears it, the address included); 404 opens the
 * pin-location picker so the user can set the coordinates; anything else 'Something went wrong'.
 */
export type SaveOutcome =
  | { kind: 'created'; message: string | null; clearForm: boolean }
  | { kind: 'pending' }
  | { kind: 'duplicate'; message: string }
  | { kind: 'pickLocation' }
  | { kind: 'failed'; message: string | null; fields: Record<string, string> };

interface ServerBody {
  message?: unknown;
  fields?: unknown;
}

function messageOf(body: unknown): string | null {
  const message = (body as ServerBody | null)?.message;
  return typeof message === 'string' && message.trim() ? message : null;
}

function fieldsOf(body: unknown): Record<string, string> {
  const fields = (body as ServerBody | null)?.fields;
  if (typeof fields !== 'object' || fields === null) return {};
  return Object.fromEntries(Object.entries(fields).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}

export function saveOutcome(status: number, body: unknown, mode: 'add' | 'edit'): SaveOutcome {
  switch (status) {
    case 201:
      return { kind: 'created', message: messageOf(body), clearForm: mode === 'add' };
    case 200:
      return { kind: 'pending' };
    case 208: {
      const message = messageOf(body) ?? '';
      // The server may already have prefixed it; never show 'Error: Error: …'.
      return { kind: 'duplicate', message: message.startsWith('Error:') ? message : `Error: ${message}` };
    }
    case 404:
      return { kind: 'pickLocation' };
    default:
      return { kind: 'failed', message: messageOf(body), fields: fieldsOf(body) };
  }
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
  const errors: Record<string, string> = {};
  for (const [field, message] of Object.entries(fields)) {
    const formField = FORM_FIELD_OF[field] ?? FORM_FIELD_OF[field.split('.')[0] ?? ''];
    if (formField && !(formField in errors)) errors[formField] = message;
  }
  return errors;
}
