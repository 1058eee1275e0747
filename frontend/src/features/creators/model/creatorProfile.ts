/**
 * The creator page's reading of a creator profile (spec §3 "Creator profile"): what the short view
 * shows, whatever optional parts a profile lacks.
 */
export interface CreatorProfile {
  id: number;
  userid: number;
  creator_name: string;
  platform_username?: string | null;
  user_name?: string | null;
  description?: string | null;
  logo?: string | null;
  trusted?: boolean;
  services?: string[] | null;
  website?: string | null;
  instagram?: string | null;
  twitter?: string | null;
  youtube?: string | null;
  facebook?: string | null;
  linkedin?: string | null;
  area_served?: string[] | null;
  default_view?: string | null;
  img_settings?: { bgColor?: string | null; logoScale?: number | null; profileScale?: number | null } | null;
  views: number;
  likes: number;
  followers: number;
  vt_count: number;
  is_follow?: boolean | null;
  created_date?: string | null;
}

export type LogoBackground = 'white' | 'black';

/** Spec §3: the creator profile's logo background is white or black, black when unset. */
export function logoBackground(profile: Pick<CreatorProfile, 'img_settings'>): LogoBackground {
  return profile.img_settings?.bgColor === 'white' ? 'white' : 'black';
}

/** Spec §9: the logo scale is stored ×10 (10 = 100 %); kept between 50 % and 200 % so the logo stays in its frame. */
export function logoScale(profile: Pick<CreatorProfile, 'img_settings'>): number {
  const stored = profile.img_settings?.logoScale;
  const scale = typeof stored === 'number' && stored > 0 ? stored / 10 : 1;
  return Math.min(2, Math.max(0.5, scale));
}

export const SOCIAL_NETWORKS = ['website', 'instagram', 'twitter', 'youtube', 'facebook', 'linkedin'] as const;
export type SocialNetwork = (typeof SOCIAL_NETWORKS)[number];

/** The profile's links that can be opened: http(s) only, never a `javascript:` or other scheme. */
export function profileLinks(profile: CreatorProfile): { network: SocialNetwork; href: string; label: string }[] {
  return SOCIAL_NETWORKS.flatMap((network) => {
    const href = safeHttpUrl(profile[network]);
    return href ? [{ network, href, label: displayUrl(href) }] : [];
  });
}

export function safeHttpUrl(value: string | null | undefined): string | null {
  if (!value) return null;
  try {
    const url = new URL(value.includes('://') ? value : `https://${value}`);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}

/** A link as people write it: no scheme, no `www.`, no trailing slash. */
export function displayUrl(href: string): string {
  return href.replace(/^https?:\/\//, '').replace(/^www\./, '').replace(/\/$/, '');
}

/** The name after the @ (the platform username), else the creator's name. */
export function handleOf(profile: CreatorProfile): string | null {
  return profile.platform_username || profile.user_name || null;
}

// ------------------------------------------------------------------ the Full Profile's view

export const CREATOR_VIEWS = ['grid', 'list', 'map'] as const;
export type CreatorView = (typeof CREATOR_VIEWS)[number];
export const VIEW_PARAM = 'view';

/** The view the page's query string names, else the creator's default view (spec §3: grid or map, grid when unset). */
export function chosenView(search: string, defaultView: string | null | undefined): CreatorView {
  const named = new URLSearchParams(search).get(VIEW_PARAM);
  const fromLink = CREATOR_VIEWS.find((view) => view === named);
  if (fromLink) return fromLink;
  return defaultView === 'map' ? 'map' : 'grid';
}

/** The creator page's address by id, the creator's handle after it (spec §2 route creatorPage). */
export function isCreatorId(value: string): boolean {
  return /^\d{1,12}$/.test(value) && Number(value) > 0;
}
