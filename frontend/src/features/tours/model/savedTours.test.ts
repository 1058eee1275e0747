import type { MediaCard } from '../../../shared/api/generated/types.gen';
import { asSavedPage, nextSavedOffset, type SavedPage, savedCards, type SavedPages, withoutSavedTour } from './savedTours';

function card(guid: string): MediaCard {
  return {
    type: 'vt',
    guid,
    title: `Tour ${guid}`,
    preview_picture: null,
    views: 0,
    saves: 1,
    is_save: true,
    is_owned: false,
    created_ago: '2 days ago',
    media_type_id: 1,
    userid: 3,
  };
}

function page(guids: string[], total: number, offset = 0): SavedPage {
  return asSavedPage({ data: guids.map(card), total_items: total, limit: guids.length || 2, offset });
}

function pages(...list: SavedPage[]): SavedPages {
  return { pages: list, pageParams: list.map((item) => item.offset) };
}

describe('saved tours paging', () => {
  it('asks for the next page until every saved tour is loaded', () => {
    expect(nextSavedOffset([page(['a', 'b'], 5)])).toBe(2);
    expect(nextSavedOffset([page(['a', 'b'], 5), page(['c', 'd'], 5, 2)])).toBe(4);
    expect(nextSavedOffset([page(['a', 'b'], 4), page(['c', 'd'], 4, 2)])).toBeUndefined();
    expect(nextSavedOffset([])).toBeUndefined();
  });

  it('stops when the server has nothing more, whatever the total said', () => {
    expect(nextSavedOffset([page(['a', 'b'], 9), page([], 9, 2)])).toBeUndefined();
  });

  it('continues after the cards still loaded once some were unsaved', () => {
    // 5 saved; a and b loaded, then a unsaved: the server's next unseen save is now at offset 1.
    const after = withoutSavedTour(pages(page(['a', 'b'], 5)), 'a');
    expect(nextSavedOffset(after.pages)).toBe(1);
    // Everything loaded was unsaved: start again at 0 for what is left.
    const emptied = withoutSavedTour(after, 'b');
    expect(savedCards(emptied.pages)).toEqual([]);
    expect(nextSavedOffset(emptied.pages)).toBe(0);
  });
});

describe('unsaving', () => {
  it('removes the card and counts one fewer on every page', () => {
    const before = pages(page(['a', 'b'], 4), page(['c', 'd'], 4, 2));
    const after = withoutSavedTour(before, 'c');
    expect(savedCards(after.pages).map((item) => item.guid)).toEqual(['a', 'b', 'd']);
    expect(after.pages.map((item) => item.total_items)).toEqual([3, 3]);
    expect(after.pageParams).toEqual(before.pageParams);
    expect(nextSavedOffset(after.pages)).toBeUndefined();
  });

  it('changes nothing for a tour that is not shown (a second click, an old answer)', () => {
    const before = pages(page(['a'], 1));
    expect(withoutSavedTour(before, 'zz')).toBe(before);
  });

  it('shows a tour once when shifted pages repeat it', () => {
    const shifted = [page(['a', 'b'], 4), page(['b', 'c'], 4, 2)];
    expect(savedCards(shifted).map((item) => item.guid)).toEqual(['a', 'b', 'c']);
  });
});
