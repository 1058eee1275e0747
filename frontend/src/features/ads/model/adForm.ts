import type { AdOut, AdWrite } from '../../../shared/api/generated/types.gen';
import { hasProfanity } from '../../../shared/validation/profanity';

/** The server's limits (app/ads/schemas.py, app/ads/models.py MAX_TAGS_PER_AD). */
export const TITLE_MAX = 255;
export const DESCRIPTION_MAX = 4000;
export const LINK_MAX = 2048;
export const MAX_AD_TAGS = 10;

/** The server's link rule (app/ads/service.py _HTTPS_URL): https, a host with a dot, no spaces. */
const HTTPS_URL = /^https:\/\/[^\s/?#]+\.[^\s/?#]+(?:[/?#]\S*)?$/i;

export interface AdTag {
  id: number;
  name: string;
}

export interface AdFormOwner {
  userid: number;
  platform_username: string;
}

export interface AdFormValues {
  link: string;
  title: string;
  description: string;
  /** POST preview-image's `path`, or the ad's current picture. */
  previewPicture: string;
  tags: AdTag[];
  /** false keeps the ad a draft. */
  isActive: boolean;
  /** Admins adding an ad for someone else (POST on-behalf-of); null: their own. */
  onBehalfOf: AdFormOwner | null;
}

export const EMPTY_AD_FORM: AdFormValues = {
  link: '',
  title: '',
  description: '',
  previewPicture: '',
  tags: [],
  isActive: true,
  onBehalfOf: null,
};

export function adToFormValues(ad: AdOut): AdFormValues {
  return {
    link: ad.link,
    title: ad.title,
    description: ad.description ?? '',
    previewPicture: ad.preview_picture ?? '',
    tags: ad.tags.map((tag) => ({ id: tag.id, name: tag.name })),
    isActive: ad.status === 'active',
    onBehalfOf: null,
  };
}

export function isHttpsLink(link: string): boolean {
  return HTTPS_URL.test(link.trim());
}

export type AdFieldError =
  | 'linkRequired'
  | 'linkHttps'
  | 'linkTooLong'
  | 'linkTaken'
  | 'titleRequired'
  | 'titleTooLong'
  | 'titleInvalid'
  | 'descriptionTooLong'
  | 'descriptionInvalid'
  | 'imageRequired'
  | 'tooManyTags';

export type AdFormErrors = Partial<Record<keyof AdFormValues, AdFieldError>>;

/** The client's copy of the server's rules (app/ads/service.py check_form); the server has the last word. */
export function validateAdForm(values: AdFormValues, { linkTaken }: { linkTaken: boolean }): AdFormErrors {
  const errors: AdFormErrors = {};
  const link = values.link.trim();
  const title = values.title.trim();
  const description = values.description.trim();
  if (!link) errors.link = 'linkRequired';
  else if (link.length > LINK_MAX) errors.link = 'linkTooLong';
  else if (!isHttpsLink(link)) errors.link = 'linkHttps';
  else if (linkTaken) errors.link = 'linkTaken';
  if (!title) errors.title = 'titleRequired';
  else if (title.length > TITLE_MAX) errors.title = 'titleTooLong';
  else if (hasProfanity(title)) errors.title = 'titleInvalid';
  if (description.length > DESCRIPTION_MAX) errors.description = 'descriptionTooLong';
  else if (description && hasProfanity(description)) errors.description = 'descriptionInvalid';
  if (!values.previewPicture.trim()) errors.previewPicture = 'imageRequired';
  if (values.tags.length > MAX_AD_TAGS) errors.tags = 'tooManyTags';
  return errors;
}

export function adFormPayload(values: AdFormValues): AdWrite {
  const description = values.description.trim();
  return {
    link: values.link.trim(),
    title: values.title.trim(),
    description: description || null,
    preview_picture: values.previewPicture.trim(),
    tags: values.tags.map((tag) => ({ id: tag.id })),
    is_active: values.isActive,
  };
}

/** Whether the form holds anything the user typed since it opened (closing then asks first). */
export function adFormChanged(values: AdFormValues, initial: AdFormValues): boolean {
  return JSON.stringify(values) !== JSON.stringify(initial);
}
