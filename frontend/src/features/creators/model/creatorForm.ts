import '../../../shared/i18n/manageTexts'; // this screen's English texts (not in the feed's bundle)
import type { CreatorProfileOut, CreatorWrite } from '../../../shared/api/generated/types.gen';
import { hasProfanity } from '../../../shared/validation/profanity';
import { validateEmail, validatePhone, validateUsername, type ValidationKey } from '../../../shared/validation/account';
import type { LogoBackground } from './creatorProfile';

/**
 * The creator profile form (spec §2 "become creator", "creator edit modal"; §3 Creator profile; §5
 * Creator): its values, the rules the browser checks before sending (the server checks them again,
 * and more: names taken, links alive), the payload of POST / PUT /v2/creators/, and what an answer
 * means. Rules return i18n keys so the same rules speak English and Russian.
 */

export const SOCIAL_FIELDS = ['instagram', 'twitter', 'youtube', 'facebook', 'linkedin'] as const;
export type SocialField = (typeof SOCIAL_FIELDS)[number];
export const LINK_FIELDS = ['website', ...SOCIAL_FIELDS] as const;
export type LinkField = (typeof LINK_FIELDS)[number];

/** Spec §9: featured tours at most 10. */
export const FEATURED_MAX = 10;
/** Spec §9 "Logo scale: default 10, divided by 10"; the server takes 1 to 30. */
export const LOGO_SCALE_DEFAULT = 10;
export const LOGO_SCALE_MIN = 1;
export const LOGO_SCALE_MAX = 30;
/** Server bounds (app/creators/schemas.py). */
export const CREATOR_NAME_MAX = 100;
export const DESCRIPTION_MAX = 4000;
export const LISTED_MAX = 20;
export const LISTED_ITEM_MAX = 200;
export const LINK_MAX = 2048;
export const PHONE_MAX = 20;
/** Logos: JPG, PNG or WEBP up to 2 MB (POST creator-logo sniffs the content; this only saves a wasted upload). */
export const LOGO_ACCEPT = 'image/png,image/jpeg,image/webp';
export const LOGO_MAX_BYTES = 2 * 1024 * 1024;

export interface CreatorFormValues {
  creator_name: string;
  user_name: string;
  logo: string;
  bgColor: LogoBackground;
  logoScale: number;
  description: string;
  services: string[];
  website: string;
  instagram: string;
  twitter: string;
  youtube: string;
  facebook: string;
  linkedin: string;
  contact_email: string;
  phone: string;
  area_served: string[];
  default_view: 'grid' | 'map';
  featured_tours: string[];
}

export type CreatorFormField = keyof CreatorFormValues;

/** A new profile: the platform username of the account is the suggestion (spec §5 username rules). */
export function emptyCreatorForm(platformUsername: string | null | undefined = ''): CreatorFormValues {
  return {
    creator_name: '',
    user_name: platformUsername ?? '',
    logo: '',
    // Spec §3: black on the profile payload when unset.
    bgColor: 'black',
    logoScale: LOGO_SCALE_DEFAULT,
    description: '',
    services: [],
    website: '',
    instagram: '',
    twitter: '',
    youtube: '',
    facebook: '',
    linkedin: '',
    contact_email: '',
    phone: '',
    area_served: [],
    default_view: 'grid',
    featured_tours: [],
  };
}

/** The edit form, prefilled from the published profile. */
export function profileToFormValues(profile: CreatorProfileOut): CreatorFormValues {
  return {
    creator_name: profile.creator_name,
    user_name: profile.user_name ?? profile.platform_username ?? '',
    logo: profile.logo ?? '',
    bgColor: profile.img_settings.bgColor === 'white' ? 'white' : 'black',
    logoScale: clampScale(profile.img_settings.logoScale ?? LOGO_SCALE_DEFAULT),
    description: profile.description ?? '',
    services: [...profile.services],
    website: profile.website ?? '',
    instagram: profile.instagram ?? '',
    twitter: profile.twitter ?? '',
    youtube: profile.youtube ?? '',
    facebook: profile.facebook ?? '',
    linkedin: profile.linkedin ?? '',
    contact_email: profile.contact_email ?? profile.creator_email ?? '',
    phone: profile.phone ?? '',
    area_served: [...profile.area_served],
    default_view: profile.default_view === 'map' ? 'map' : 'grid',
    featured_tours: [...profile.featured_tours].sort((a, b) => a.position - b.position).map((tour) => tour.id),
  };
}

export function clampScale(value: number): number {
  if (!Number.isFinite(value)) return LOGO_SCALE_DEFAULT;
  return Math.min(LOGO_SCALE_MAX, Math.max(LOGO_SCALE_MIN, Math.round(value)));
}

// ------------------------------------------------------------------------------------------ rules

export type CreatorErrorKey =
  | ValidationKey
  | 'creatorForm.errors.name'
  | 'creatorForm.errors.description'
  | 'creatorForm.errors.logo'
  | 'creatorForm.errors.location'
  | 'creatorForm.errors.link'
  | 'creatorForm.errors.website'
  | 'creatorForm.errors.tooMany'
  | 'creatorForm.errors.itemTooLong'
  | 'creatorForm.errors.service'
  | 'creatorForm.errors.featured'
  | 'creatorForm.errors.tooLong';

export type CreatorFormErrors = Partial<Record<CreatorFormField, CreatorErrorKey>>;

/** An absolute http(s) address with a host (a missing scheme is read as https://, as the payload sends it). */
export function isHttpLink(value: string): boolean {
  const text = withScheme(value);
  try {
    const url = new URL(text);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname.includes('.') && !url.username && !url.password;
  } catch {
    return false;
  }
}

function withScheme(value: string): string {
  const text = value.trim();
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`;
}

function listFailure(items: string[], profane: CreatorErrorKey): CreatorErrorKey | null {
  if (items.length > LISTED_MAX) return 'creatorForm.errors.tooMany';
  if (items.some((item) => item.length > LISTED_ITEM_MAX)) return 'creatorForm.errors.itemTooLong';
  return items.some(hasProfanity) ? profane : null;
}

/**
 * Spec §5 "Creator": location (area served), username and logo required; Invalid Creator Name,
 * Invalid Description (profanity); website and the social links well formed, the website free of
 * profanity; featured at most 10; the contact address and phone as the account's rules say.
 */
export function validateCreatorForm(values: CreatorFormValues): CreatorFormErrors {
  const errors: CreatorFormErrors = {};
  const set = (field: CreatorFormField, key: CreatorErrorKey | null) => {
    if (key) errors[field] = key;
  };
  const name = values.creator_name.trim();
  set('creator_name', !name ? 'auth.errors.required' : name.length > CREATOR_NAME_MAX ? 'creatorForm.errors.tooLong' : hasProfanity(name) ? 'creatorForm.errors.name' : null);
  set('user_name', validateUsername(values.user_name.trim()));
  set('logo', values.logo ? null : 'creatorForm.errors.logo');
  const description = values.description.trim();
  set('description', description.length > DESCRIPTION_MAX ? 'creatorForm.errors.tooLong' : hasProfanity(description) ? 'creatorForm.errors.description' : null);
  set('services', listFailure(cleanList(values.services), 'creatorForm.errors.service'));
  const areas = cleanList(values.area_served);
  set('area_served', areas.length === 0 ? 'creatorForm.errors.location' : listFailure(areas, 'creatorForm.errors.service'));
  for (const field of LINK_FIELDS) {
    const link = values[field].trim();
    if (!link) continue;
    if (link.length > LINK_MAX || !isHttpLink(link)) set(field, 'creatorForm.errors.link');
    else if (field === 'website' && hasProfanity(link.replace(/[/.]/g, ' '))) set(field, 'creatorForm.errors.website');
  }
  const email = values.contact_email.trim();
  set('contact_email', email ? validateEmail(email) : null);
  const phone = values.phone.trim();
  set('phone', phone.length > PHONE_MAX ? 'auth.errors.phone' : validatePhone(phone));
  set('featured_tours', values.featured_tours.length > FEATURED_MAX ? 'creatorForm.errors.featured' : null);
  return errors;
}

// ---------------------------------------------------------------------------------------- payload

function cleanList(items: string[]): string[] {
  return [...new Set(items.map((item) => item.trim()).filter(Boolean))];
}

function optional(value: string): string | null {
  const text = value.trim();
  return text ? text : null;
}

function optionalLink(value: string): string | null {
  return value.trim() ? withScheme(value) : null;
}

export interface PayloadContext {
  /** PUT: the profile being edited. */
  creatorId?: number | null;
  /** What the form does not show but the profile has, kept as it is. */
  joinedGroup?: boolean;
  profileScale?: number;
}

/** The creator payload of POST and PUT /v2/creators/ (spec §3, wire names as the server reads them). */
export function formValuesToPayload(values: CreatorFormValues, context: PayloadContext = {}): CreatorWrite {
  const email = optional(values.contact_email);
  return {
    ...(context.creatorId ? { id: context.creatorId } : {}),
    creator_name: values.creator_name.trim(),
    user_name: optional(values.user_name),
    description: optional(values.description),
    logo: optional(values.logo),
    img_settings: {
      bgColor: values.bgColor,
      logoScale: clampScale(values.logoScale),
      profileScale: clampScale(context.profileScale ?? LOGO_SCALE_DEFAULT),
    },
    services: cleanList(values.services),
    website: optionalLink(values.website),
    instagram: optionalLink(values.instagram),
    twitter: optionalLink(values.twitter),
    youtube: optionalLink(values.youtube),
    facebook: optionalLink(values.facebook),
    linkedin: optionalLink(values.linkedin),
    contact_email: email,
    creator_email: email,
    phone: optional(values.phone),
    area_served: cleanList(values.area_served),
    default_view: values.default_view,
    featured_tours: values.featured_tours,
    joined_fb_group: context.joinedGroup ?? false,
  };
}

// ----------------------------------------------------------------------------------------- answers

/**
 * Spec §4 "Creator update" and §8: 200 `CreatorProfile.Updated` (applied), 201
 * `CreatorProfile.AddEditPending` (waits for an admin; the published profile stays until then);
 * 409 or 400 carry the server's message, a 400 its failing fields too.
 */
export type CreatorSaveOutcome =
  | { kind: 'updated'; profile: CreatorProfileOut | null }
  | { kind: 'pending'; profile: CreatorProfileOut | null }
  | { kind: 'rejected'; message: string | null; fields: Partial<Record<CreatorFormField, string>> };

interface ServerBody {
  message?: unknown;
  fields?: unknown;
  data?: unknown;
}

function asBody(body: unknown): ServerBody {
  return typeof body === 'object' && body !== null ? (body as ServerBody) : {};
}

export function creatorSaveOutcome(status: number, body: unknown): CreatorSaveOutcome {
  const parsed = asBody(body);
  const profile = typeof parsed.data === 'object' && parsed.data !== null ? (parsed.data as CreatorProfileOut) : null;
  if (status === 200) return { kind: 'updated', profile };
  if (status === 201) return { kind: 'pending', profile };
  const message = typeof parsed.message === 'string' && parsed.message.trim() ? parsed.message : null;
  return { kind: 'rejected', message, fields: serverFieldErrors(parsed.fields) };
}

/** The server's field names (creator payload) → the form's, so each reason shows beside its field. */
const FORM_FIELD_OF: Record<string, CreatorFormField> = {
  creator_name: 'creator_name',
  user_name: 'user_name',
  platform_username: 'user_name',
  logo: 'logo',
  img_settings: 'logo',
  description: 'description',
  services: 'services',
  website: 'website',
  instagram: 'instagram',
  twitter: 'twitter',
  youtube: 'youtube',
  facebook: 'facebook',
  linkedin: 'linkedin',
  contact_email: 'contact_email',
  creator_email: 'contact_email',
  phone: 'phone',
  area_served: 'area_served',
  default_view: 'default_view',
  featured_tours: 'featured_tours',
};

export function serverFieldErrors(fields: unknown): Partial<Record<CreatorFormField, string>> {
  if (typeof fields !== 'object' || fields === null) return {};
  const errors: Partial<Record<CreatorFormField, string>> = {};
  for (const [name, message] of Object.entries(fields as Record<string, unknown>)) {
    const field = FORM_FIELD_OF[name] ?? FORM_FIELD_OF[name.split('.')[0] ?? ''];
    if (field && typeof message === 'string' && message && !(field in errors)) errors[field] = message;
  }
  return errors;
}

/** Why a picked logo file is not sent at all (wrong kind, too large); null when it may go. */
export function logoFileProblem(file: { type: string; size: number }): 'type' | 'size' | null {
  if (!LOGO_ACCEPT.split(',').includes(file.type)) return 'type';
  return file.size > LOGO_MAX_BYTES ? 'size' : null;
}
