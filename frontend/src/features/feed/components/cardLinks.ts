import { STORAGE_KEYS, writeItem } from '../../../shared/storage/localStore';

/** Spec §2 "Cards": the clicked item's id is remembered (gridItemId) so the grid can return to it. */
export function rememberGridItem(id: string | number): void {
  writeItem(STORAGE_KEYS.gridItemId, String(id));
}

/**
 * What a card's context menu needs (spec §2: Open, Open in new tab), read from the card element's
 * data attributes so one menu serves the whole grid.
 */
export interface CardTarget {
  itemId: string;
  href: string;
  /** Ads lead to the advertiser's site; everything else stays in the app. */
  external: boolean;
}

export function cardTargetOf(element: Element | null): CardTarget | null {
  const card = element?.closest<HTMLElement>('[data-grid-item]');
  const itemId = card?.dataset.gridItem;
  const href = card?.getAttribute('href');
  if (!card || !itemId || !href) return null;
  return { itemId, href, external: card.dataset.external === 'true' };
}
