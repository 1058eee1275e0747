import { QueryClient } from '@tanstack/react-query';

import { creatorQueryKeys } from '../creators/creatorQueryKeys';
import { moderationQueryKeys } from '../moderation/moderationQueryKeys';
import { appVersionQueryOptions } from '../platform/platformConfig';
import { tourCountersKey } from '../tours/tourQueryKeys';
import { writeEventToCache } from './cacheWriters';
import { REALTIME_EVENTS } from './events';

const PLAYER = { id: 'abc', views: 10, likes: 2, saves: 1, shared: 0, user_like: 1, user_save: 0 };

function client(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { retry: false, gcTime: Infinity } } });
}

describe('realtime events written into the query cache', () => {
  it('puts pushed tour counters into the loaded player query and keeps the user flags', () => {
    const queryClient = client();
    queryClient.setQueryData(tourCountersKey('abc'), PLAYER);
    queryClient.setQueryData(tourCountersKey('other'), { ...PLAYER, id: 'other' });

    writeEventToCache(queryClient, REALTIME_EVENTS.tourCounters, { id: 'abc', views: 11, likes: 3, saves: 1, shared: 4 });

    expect(queryClient.getQueryData(tourCountersKey('abc'))).toEqual({ ...PLAYER, views: 11, likes: 3, shared: 4 });
    expect(queryClient.getQueryData(tourCountersKey('other'))).toEqual({ ...PLAYER, id: 'other' });
  });

  it('leaves a tour nobody has loaded alone, and keeps the same object when nothing changed', () => {
    const queryClient = client();
    writeEventToCache(queryClient, REALTIME_EVENTS.tourCounters, { id: 'abc', views: 1, likes: 0, saves: 0, shared: 0 });
    expect(queryClient.getQueryData(tourCountersKey('abc'))).toBeUndefined();

    queryClient.setQueryData(tourCountersKey('abc'), PLAYER);
    const before = queryClient.getQueryData(tourCountersKey('abc'));
    writeEventToCache(queryClient, REALTIME_EVENTS.tourCounters, { id: 'abc', views: 10, likes: 2, saves: 1, shared: 0 });
    expect(queryClient.getQueryData(tourCountersKey('abc'))).toBe(before);
  });

  it('never triggers a request', () => {
    const queryClient = client();
    const fetchPlayer = vi.fn(async () => PLAYER);
    queryClient.setQueryData(tourCountersKey('abc'), PLAYER);
    queryClient.getQueryCache().build(queryClient, { queryKey: tourCountersKey('abc'), queryFn: fetchPlayer });
    writeEventToCache(queryClient, REALTIME_EVENTS.tourCounters, { id: 'abc', views: 99, likes: 2, saves: 1, shared: 0 });
    expect(fetchPlayer).not.toHaveBeenCalled();
    expect(queryClient.getQueryState(tourCountersKey('abc'))?.isInvalidated).toBe(false);
  });

  it('merges creator counters into every loaded query about that creator', () => {
    const queryClient = client();
    const profile = { id: 7, creator_name: 'Ada', followers: 5, views: 100, likes: 9 };
    const card = { id: 7, type: 'creator', followers: 5, views: 100, is_follow: true };
    queryClient.setQueryData(creatorQueryKeys.byId(7), profile);
    queryClient.setQueryData(['creators', 'by-name', 'ada'], card);
    queryClient.setQueryData(creatorQueryKeys.byId(8), { ...profile, id: 8 });
    queryClient.setQueryData(['discovery', 'something'], { id: 7, followers: 5 });

    writeEventToCache(queryClient, REALTIME_EVENTS.creatorCounters, { id: 7, followers: 6, views: 101, likes: 10 });

    expect(queryClient.getQueryData(creatorQueryKeys.byId(7))).toEqual({ ...profile, followers: 6, views: 101, likes: 10 });
    // Only the counters the cached object has: a card without likes does not grow one.
    expect(queryClient.getQueryData(['creators', 'by-name', 'ada'])).toEqual({ ...card, followers: 6, views: 101 });
    expect(queryClient.getQueryData(creatorQueryKeys.byId(8))).toEqual({ ...profile, id: 8 });
    expect(queryClient.getQueryData(['discovery', 'something'])).toEqual({ id: 7, followers: 5 });
  });

  it('announces a new version where the top bar reads it', () => {
    const queryClient = client();
    writeEventToCache(queryClient, REALTIME_EVENTS.appVersion, { gui_version: '2.4.0' });
    expect(queryClient.getQueryData(appVersionQueryOptions().queryKey)).toEqual({ gui_version: '2.4.0' });
  });

  it('keeps the moderation badges current, whichever domain changed the queue', () => {
    const queryClient = client();
    writeEventToCache(queryClient, REALTIME_EVENTS.moderationQueue, { kind: 'new_user', id: 3, action: 'added', pending: { new_user: 4, vt_edit: 0 } });
    expect(queryClient.getQueryData(moderationQueryKeys.pendingCounts)).toEqual({ new_user: 4, vt_edit: 0 });
    // A tour's push names the tour by guid and carries every kind's count too.
    writeEventToCache(queryClient, REALTIME_EVENTS.moderationQueue, { kind: 'new_virtual_tour', id: 'abc', action: 'added', pending: { new_user: 4, vt_edit: 1 } });
    expect(queryClient.getQueryData(moderationQueryKeys.pendingCounts)).toEqual({ new_user: 4, vt_edit: 1 });
    writeEventToCache(queryClient, REALTIME_EVENTS.moderationQueue, { kind: 'vt_edit', id: 'abc', action: 'added', pending: { vt_edit: 'one' } });
    expect(queryClient.getQueryData(moderationQueryKeys.pendingCounts)).toEqual({ new_user: 4, vt_edit: 1 });
  });

  it('ignores malformed payloads and unknown events', () => {
    const queryClient = client();
    queryClient.setQueryData(tourCountersKey('abc'), PLAYER);
    writeEventToCache(queryClient, REALTIME_EVENTS.tourCounters, { id: 'abc', views: 'many' });
    writeEventToCache(queryClient, REALTIME_EVENTS.tourCounters, null);
    writeEventToCache(queryClient, REALTIME_EVENTS.appVersion, { gui_version: 3 });
    writeEventToCache(queryClient, 'something:else', { id: 'abc', views: 1, likes: 1, saves: 1, shared: 1 });
    expect(queryClient.getQueryData(tourCountersKey('abc'))).toEqual(PLAYER);
    expect(queryClient.getQueryData(appVersionQueryOptions().queryKey)).toBeUndefined();
  });
});

const CARD = { type: 'vt', guid: 'abc', title: 'Castle', views: 10, saves: 1, is_save: true, is_owned: false };
const CREATOR_CARD = { type: 'creator', id: 7, creator_name: 'Ada', followers: 5, views: 100, vt_count: 3, is_follow: false };

function gridKey(name: string) {
  return ['discovery', 'filtered-grid', { sort: name }, 'en'];
}

function gridPages(...pages: unknown[][]) {
  return { pages: pages.map((data, index) => ({ data, total_items: 100, limit: 48, offset: index * 48 })), pageParams: pages.map((_, index) => index * 48) };
}

describe('pushed counters in the grids', () => {
  it('reach every loaded card of the tour, on every page of every grid, without a request', () => {
    const queryClient = client();
    const other = { ...CARD, guid: 'other' };
    const fetchGrid = vi.fn(async () => gridPages([CARD]));
    queryClient.setQueryData(gridKey('new'), gridPages([other, CARD], [CREATOR_CARD]));
    queryClient.setQueryData(gridKey('popular'), gridPages([CREATOR_CARD], [CARD]));
    queryClient.getQueryCache().build(queryClient, { queryKey: gridKey('new'), queryFn: fetchGrid });

    writeEventToCache(queryClient, REALTIME_EVENTS.tourCounters, { id: 'abc', views: 12, likes: 40, saves: 3, shared: 9 });

    const moved = { ...CARD, views: 12, saves: 3 }; // a card has no likes or shares: none are added
    expect(queryClient.getQueryData(gridKey('new'))).toEqual(gridPages([other, moved], [CREATOR_CARD]));
    expect(queryClient.getQueryData(gridKey('popular'))).toEqual(gridPages([CREATOR_CARD], [moved]));
    expect(fetchGrid).not.toHaveBeenCalled();
    expect(queryClient.getQueryState(gridKey('new'))?.isInvalidated).toBe(false);
  });

  it('keeps pages, cards and lists that did not change as they were', () => {
    const queryClient = client();
    const grid = gridPages([CARD], [CREATOR_CARD]);
    queryClient.setQueryData(gridKey('new'), grid);
    writeEventToCache(queryClient, REALTIME_EVENTS.tourCounters, { id: 'abc', views: 11, likes: 0, saves: 1, shared: 0 });
    const after = queryClient.getQueryData<typeof grid>(gridKey('new'));
    expect(after?.pages[1]).toBe(grid.pages[1]); // the untouched page keeps its identity
    expect(after?.pages[1]?.data[0]).toBe(CREATOR_CARD);

    const before = queryClient.getQueryData(gridKey('new'));
    writeEventToCache(queryClient, REALTIME_EVENTS.tourCounters, { id: 'abc', views: 11, likes: 0, saves: 1, shared: 0 });
    writeEventToCache(queryClient, REALTIME_EVENTS.tourCounters, { id: 'nowhere', views: 1, likes: 0, saves: 1, shared: 0 });
    expect(queryClient.getQueryData(gridKey('new'))).toBe(before);
  });

  it('reach plain card lists too (similar and saved tours)', () => {
    const queryClient = client();
    queryClient.setQueryData(['discovery', 'similar-media', 'xyz', 'en'], { data: [CARD] });
    writeEventToCache(queryClient, REALTIME_EVENTS.tourCounters, { id: 'abc', views: 50, likes: 0, saves: 8, shared: 0 });
    expect(queryClient.getQueryData(['discovery', 'similar-media', 'xyz', 'en'])).toEqual({ data: [{ ...CARD, views: 50, saves: 8 }] });
  });

  it('move a creator card’s followers and views, never a tour card with the same number', () => {
    const queryClient = client();
    const tourWithId = { ...CARD, id: 7 };
    queryClient.setQueryData(['discovery', 'creator-media', 4, {}, 'en'], gridPages([tourWithId, CREATOR_CARD]));
    writeEventToCache(queryClient, REALTIME_EVENTS.creatorCounters, { id: 7, followers: 6, views: 101, likes: 10 });
    expect(queryClient.getQueryData(['discovery', 'creator-media', 4, {}, 'en'])).toEqual(
      gridPages([tourWithId, { ...CREATOR_CARD, followers: 6, views: 101 }]),
    );
  });
});

describe('a creator’s live analytics', () => {
  const TOTALS = { creator_id: 7, views: 100, likes: 9, saves: 4, shared: 2, followers: 5 };

  it('are kept whole for the analytics page, before it loads and once it has', () => {
    const queryClient = client();
    writeEventToCache(queryClient, REALTIME_EVENTS.creatorAnalytics, { ...TOTALS, extra: 'ignored' });
    expect(queryClient.getQueryData(creatorQueryKeys.analytics(7))).toEqual(TOTALS);

    queryClient.setQueryData(creatorQueryKeys.analytics(7), { ...TOTALS, period: 'all time' });
    writeEventToCache(queryClient, REALTIME_EVENTS.creatorAnalytics, { ...TOTALS, views: 101, followers: 6 });
    expect(queryClient.getQueryData(creatorQueryKeys.analytics(7))).toEqual({ ...TOTALS, views: 101, followers: 6, period: 'all time' });
  });

  it('are not mistaken for creator counters, and ignore malformed pushes', () => {
    const queryClient = client();
    writeEventToCache(queryClient, REALTIME_EVENTS.creatorAnalytics, TOTALS);
    writeEventToCache(queryClient, REALTIME_EVENTS.creatorCounters, { id: 7, followers: 60, views: 1000, likes: 90 });
    expect(queryClient.getQueryData(creatorQueryKeys.analytics(7))).toEqual(TOTALS);
    writeEventToCache(queryClient, REALTIME_EVENTS.creatorAnalytics, { ...TOTALS, saves: null });
    writeEventToCache(queryClient, REALTIME_EVENTS.creatorAnalytics, { ...TOTALS, creator_id: '7', views: 5 });
    expect(queryClient.getQueryData(creatorQueryKeys.analytics(7))).toEqual(TOTALS);
  });
});
