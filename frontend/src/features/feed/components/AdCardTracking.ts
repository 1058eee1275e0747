import { adsClick, adsShow } from '../../../shared/api/generated/sdk.gen';

/**
 * Spec §7 Ads: the Sponsored card's impressions and clicks, counted by the server once per viewer per
 * page view. A page view is one history entry of the grid (react-router's location key): a fresh visit
 * to the feed is a new one, while re-renders, cards mounted again by scrolling, and the way back to an
 * entry already seen keep theirs. The ids are kept per tab, so the grid's code holds no state for them.
 */
const pageViews = new Map<string, string>();
const shown = new Set<string>();

function newPageViewId(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return `pv-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`;
}

/** The page view of one history entry; made the first time that entry shows an ad. */
export function pageViewOf(locationKey: string): string {
  let id = pageViews.get(locationKey);
  if (id === undefined) {
    id = newPageViewId();
    pageViews.set(locationKey, id);
  }
  return id;
}

/** GET show/{ad_id}: once per ad and page view; a failed count is not worth the visitor's attention. */
export function trackAdShown(adId: number, pageView: string): void {
  const key = `${pageView}:${adId}`;
  if (shown.has(key)) return;
  shown.add(key);
  void adsShow({ path: { ad_id: adId }, query: { page_view: pageView } }).catch(() => undefined);
}

/**
 * POST click/{ad_id}, fire and forget. `keepalive` lets it finish while the link opens, and unlike
 * sendBeacon it carries the visitor's token, so the click is counted for the same viewer as the show.
 */
export function trackAdClick(adId: number, pageView: string): void {
  void adsClick({ path: { ad_id: adId }, body: { page_view: pageView }, keepalive: true }).catch(() => undefined);
}

/** Tests start every case from a fresh tab. */
export function forgetAdTracking(): void {
  pageViews.clear();
  shown.clear();
}
