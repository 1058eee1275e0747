import type { InfiniteData } from '@tanstack/react-query';

import type { MediaCard, SavedToursPage } from '../../../shared/api/generated/types.gen';

/** A page of GET saved/{userid} as the modal keeps it: unsaved cards leave it, `fetched` remembers how many came. */
export interface SavedPage extends SavedToursPage {
  fetched: number;
}

export type SavedPages = InfiniteData<SavedPage, number>;

export function asSavedPage(page: SavedToursPage): SavedPage {
  return { ...page, fetched: page.data.length };
}

/** The cards to show, once each (a save made elsewhere meanwhile shifts the pages and may repeat one). */
export function savedCards(pages: readonly SavedPage[]): MediaCard[] {
  const seen = new Set<string>();
  return pages.flatMap((page) =>
    page.data.filter((card) => {
      if (seen.has(card.guid)) return false;
      seen.add(card.guid);
      return true;
    }),
  );
}

/**
 * The offset of the next page. Cards unsaved here are gone on the server too, so the next unseen
 * save sits at the number of cards still loaded, not at the sum of the page sizes asked for.
 */
export function nextSavedOffset(pages: readonly SavedPage[]): number | undefined {
  const last = pages.at(-1);
  if (!last || last.fetched === 0) return undefined;
  const loaded = pages.reduce((sum, page) => sum + page.data.length, 0);
  return loaded < last.total_items ? loaded : undefined;
}

/** The pages without an unsaved tour, one fewer in every total; unchanged when the tour is not among them. */
export function withoutSavedTour(data: SavedPages, guid: string): SavedPages {
  if (!data.pages.some((page) => page.data.some((card) => card.guid === guid))) return data;
  return {
    ...data,
    pages: data.pages.map((page) => ({
      ...page,
      data: page.data.filter((card) => card.guid !== guid),
      total_items: Math.max(0, page.total_items - 1),
    })),
  };
}
