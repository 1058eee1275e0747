import '../../../shared/i18n/manageTexts'; // this screen's English texts (not in the feed's bundle)
import { hasProfanity } from '../../../shared/validation/profanity';

/** Spec §9: a tour carries at most 10 tags; its description at most 4000 characters. */
export const MAX_TAGS = 10;
export const DESCRIPTION_MAX_LENGTH = 4000;

export interface SelectedTag {
  id: number;
  name: string;
  /** Suggested from the title and description (document-tags) or picked by hand. */
  source: 'suggested' | 'manual';
}

export interface OnBehalfOf {
  userid: number;
  platform_username: string;
}

/** The form's values. Selects hold ids as strings, as Mantine's Select does. */
export interface MediaFormValues {
  vendorId: string | null;
  link: string;
  title: string;
  description: string;
  mediaTypeId: string | null;
  categoryId: string | null;
  subcategoryId: string | null;
  /** Request a category that does not exist yet instead of choosing one. */
  newCategoryMode: boolean;
  /** "Category" or "Category, Subcategory" (spec §5 new_category_warning). */
  newCategory: string;
  cameraId: string | null;
  /** Spec §5 "physical address Yes": the tour shows a real place. */
  hasAddress: boolean;
  addressStr: string;
  addressId: string | null;
  /** "lat,lng" chosen on the pin-location picker; wins over the address on the server. */
  coordinate: string | null;
  vtWebsite: string;
  previewPicture: string;
  tags: SelectedTag[];
  isAiGenerated: boolean;
  thirdPartyCreator: string;
  creatorWebsite: string;
  onBehalfOf: OnBehalfOf | null;
  /** Who finds the tour once published: everyone, or only whoever has its link (and its owner's pages). */
  visibility: 'public' | 'unlisted';
  /** Saved as a draft: nobody but its owner sees it; `visibility` applies when it is published. */
  asDraft: boolean;
}

export const EMPTY_MEDIA_FORM: MediaFormValues = {
  vendorId: null,
  link: '',
  title: '',
  description: '',
  mediaTypeId: null,
  categoryId: null,
  subcategoryId: null,
  newCategoryMode: false,
  newCategory: '',
  cameraId: null,
  hasAddress: true,
  addressStr: '',
  addressId: null,
  coordinate: null,
  vtWebsite: '',
  previewPicture: '',
  tags: [],
  isAiGenerated: false,
  thirdPartyCreator: '',
  creatorWebsite: '',
  onBehalfOf: null,
  visibility: 'public',
  asDraft: false,
};

/** What the rules need besides the values: who is adding, what the host demands, how the lookup went. */
export interface MediaFormContext {
  mode: 'add' | 'edit';
  isAdmin: boolean;
  /** The chosen host never sends a preview picture (spec §3 Vendor preview_picture_required). */
  hostNeedsPicture: boolean;
  /** The provider lookup failed: the image becomes required (spec §4). */
  lookupFailed: boolean;
  /** link_exists said yes (spec §5 'Link is not unique', skipped in edit). */
  linkTaken: boolean;
}

export type MediaFormErrorKey =
  | 'mediaForm.errors.required'
  | 'mediaForm.errors.hostRequired'
  | 'mediaForm.errors.linkFormat'
  | 'mediaForm.errors.linkNotUnique'
  | 'mediaForm.errors.invalidTitle'
  | 'mediaForm.errors.invalidDescription'
  | 'mediaForm.errors.descriptionLength'
  | 'mediaForm.errors.imageRequired'
  | 'mediaForm.errors.selectUser'
  | 'mediaForm.errors.https'
  | 'mediaForm.errors.newCategory'
  | 'mediaForm.errors.addressRequired'
  | 'mediaForm.errors.tooManyTags';

export type MediaFormErrors = Partial<Record<keyof MediaFormValues, MediaFormErrorKey>>;

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value.trim());
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname.includes('.');
  } catch {
    return false;
  }
}

/** A link worth asking the provider about: an http(s) address with a real host name. */
export function isLookupCandidate(link: string): boolean {
  return isHttpUrl(link);
}

export interface NewCategoryRequest {
  category: string;
  subcategory?: string;
}

/** "Museums" or "Museums, Art galleries" → the request; null when the text does not follow that shape. */
export function parseNewCategory(text: string): NewCategoryRequest | null {
  const parts = text.split(',').map((part) => part.trim());
  const [category, subcategory, ...rest] = parts;
  if (!category || rest.length > 0) return null;
  if (subcategory === undefined) return { category };
  return subcategory ? { category, subcategory } : null;
}

function linkError(values: MediaFormValues, context: MediaFormContext): MediaFormErrorKey | null {
  if (!values.link.trim()) return 'mediaForm.errors.required';
  if (!isHttpUrl(values.link)) return 'mediaForm.errors.linkFormat';
  if (context.mode === 'add' && context.linkTaken) return 'mediaForm.errors.linkNotUnique';
  return null;
}

function titleError(title: string): MediaFormErrorKey | null {
  if (!title.trim()) return 'mediaForm.errors.required';
  return hasProfanity(title) ? 'mediaForm.errors.invalidTitle' : null;
}

function descriptionError(description: string): MediaFormErrorKey | null {
  if (description.length > DESCRIPTION_MAX_LENGTH) return 'mediaForm.errors.descriptionLength';
  return hasProfanity(description) ? 'mediaForm.errors.invalidDescription' : null;
}

function optionalHttpsError(value: string): MediaFormErrorKey | null {
  const text = value.trim();
  return text === '' || (text.startsWith('https://') && isHttpUrl(text)) ? null : 'mediaForm.errors.https';
}

/**
 * A requested category waits for the admins, so the tour keeps a chosen category meanwhile: the
 * category is required in both modes, the request's text only in request mode.
 */
function categoryErrors(values: MediaFormValues): MediaFormErrors {
  const errors: MediaFormErrors = values.categoryId ? {} : { categoryId: 'mediaForm.errors.required' };
  if (!values.newCategoryMode) return errors;
  if (!values.newCategory.trim()) return { ...errors, newCategory: 'mediaForm.errors.required' };
  return parseNewCategory(values.newCategory) ? errors : { ...errors, newCategory: 'mediaForm.errors.newCategory' };
}

/** Spec §5 "Media form": every failing field with the i18n key of its message. */
export function validateMediaForm(values: MediaFormValues, context: MediaFormContext): MediaFormErrors {
  const errors: MediaFormErrors = { ...categoryErrors(values) };
  const set = (field: keyof MediaFormValues, key: MediaFormErrorKey | null) => {
    if (key) errors[field] = key;
  };
  if (context.mode === 'add') set('vendorId', values.vendorId ? null : 'mediaForm.errors.hostRequired');
  set('link', linkError(values, context));
  set('title', titleError(values.title));
  set('description', descriptionError(values.description));
  set('mediaTypeId', values.mediaTypeId ? null : 'mediaForm.errors.required');
  const pictureRequired = context.hostNeedsPicture || context.lookupFailed;
  set('previewPicture', pictureRequired && !values.previewPicture ? 'mediaForm.errors.imageRequired' : null);
  set('onBehalfOf', context.isAdmin && context.mode === 'add' && !values.onBehalfOf ? 'mediaForm.errors.selectUser' : null);
  set('vtWebsite', optionalHttpsError(values.vtWebsite));
  set('creatorWebsite', optionalHttpsError(values.creatorWebsite));
  // The location is fixed once a tour exists (spec §4), so only a new tour can miss its address.
  const addressMissing = context.mode === 'add' && values.hasAddress && !values.addressStr.trim() && !values.coordinate;
  set('addressStr', addressMissing ? 'mediaForm.errors.addressRequired' : null);
  set('tags', values.tags.length > MAX_TAGS ? 'mediaForm.errors.tooManyTags' : null);
  return errors;
}

/** 'Address as title' needs an address to copy (spec §5). */
export function canUseAddressAsTitle(values: Pick<MediaFormValues, 'addressStr'>): boolean {
  return values.addressStr.trim() !== '';
}

/** Spec §5: the subcategory selector lists only subcategories of the chosen category. */
export function subcategoriesOf<T extends { category_id: number }>(subcategories: readonly T[], categoryId: string | null): T[] {
  if (!categoryId) return [];
  return subcategories.filter((subcategory) => String(subcategory.category_id) === categoryId);
}

function comparable(values: MediaFormValues): string {
  return JSON.stringify({ ...values, tags: values.tags.map((tag) => tag.id).sort((a, b) => a - b) });
}

/** Spec §4: the exit dialog appears only when the form differs from its initial state. */
export function formChanged(values: MediaFormValues, initial: MediaFormValues): boolean {
  return comparable(values) !== comparable(initial);
}
