import type { CreatorProfileOut } from '../../../shared/api/generated/types.gen';

/**
 * The creator page's reading of a creator profile (spec §3 "Creator profile"): what the short view
 * shows, whatever optional parts a profile lacks.
 */
/** GET /v2/creators/by-id/{id} and its by-name twin answer this under `data`. */
export type CreatorProfile = CreatorProfileOut;

export type LogoBackground = 'white' | 'black';

/** Spec §3: the creator profile's logo background is white or black, black when unset. */
export function logoBackground(profile: { img_settings?: { bgColor?: string | null } | null }): LogoBackground {
  return profile.img_settings?.bgColor === 'white' ? 'white' : 'black';
}

/** Spec §9: the logo scale is stored ×10 (10 = 100 %, the server allows 1 to 30). */
export function logoScale(profile: { img_settings?: { logoScale?: number | null } | null }): number {
  const stored = profile.img_settings?.logoScale;
  const scale = typeof stored === 'number' && stored > 0 ? stored / 10 : 1;
  return Math.min(3, Math.max(0.1, scale));
}

export const SOCIAL_NETWORKS = ['website', 'instagram', 'twitter', 'youtube', 'facebook', 'linkedin'] as const;
export type SocialNetwork = (typeof SOCIAL_NETWORKS)[number];

/** The profile's links that can be opened: http(s) only, never a `javascript:` or other scheme. */
export function profileLinks(profile: Pick<CreatorProfile, SocialNetwork>): { network: SocialNetwork; href: string; label: string }[] {
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
