import { addCounts, dayIsInRange, incrementsDay, mergeRows, mergeSeries, mergeTotals, parseRecent, type RecentIncrements } from './liveMerge';
import type { DayPoint, TablePage } from './metrics';

/** A push as app/analytics/live.py sends it. */
function push(recent: Record<string, unknown>) {
  return { creator_id: 3, views: 900, likes: 40, saves: 7, shared: 2, followers: 11, recent };
}

const emptyRecent = { since: null, until: null, views: 0, likes: 0, saves: 0, shares: 0, follows: 0, impressions: 0, clicks: 0, tours: [], ads: [] };

function recentOf(fields: Record<string, unknown>): RecentIncrements {
  return parseRecent(push({ ...emptyRecent, ...fields }))!;
}

const range = { from: '2026-11-01', to: '2026-11-30', timeZone: 'Europe/Berlin', userId: null };

describe('reading a push', () => {
  it('takes the increments per kind and per tour and ad, named by guid', () => {
    const recent = recentOf({
      until: '2026-11-30T10:00:00+00:00',
      views: 3,
      likes: 1,
      tours: [{ tour_id: 5, id: 'tour-a', views: 3, likes: 1, saves: 0, shares: 0 }],
      ads: [{ ad_id: 9, id: 'ad-a', impressions: 2, clicks: 1 }, { ad_id: 10, impressions: 1, clicks: 0 }],
    });
    expect(recent.counts).toMatchObject({ views: 3, likes: 1, saves: 0 });
    expect(recent.tours).toEqual([{ id: 'tour-a', counts: { views: 3, likes: 1, saves: 0, shares: 0 } }]);
    expect(recent.ads.map((row) => row.id)).toEqual(['ad-a', null]); // an ad the server could not name
  });

  it('finds no increments in a push without them or in something else', () => {
    expect(parseRecent({ creator_id: 3, views: 1 })).toBeNull();
    expect(parseRecent('creator:analytics')).toBeNull();
    expect(parseRecent(push({ views: 'many' }))?.counts).toEqual({});
  });

  it('puts the increments on the viewer’s day of their last event', () => {
    const lateEvening = recentOf({ until: '2026-11-30T23:30:00+00:00' });
    expect(incrementsDay(lateEvening, 'UTC')).toBe('2026-11-30');
    expect(incrementsDay(lateEvening, 'Europe/Berlin')).toBe('2026-12-01'); // already after midnight there
    expect(incrementsDay(recentOf({ until: null }), 'UTC', new Date('2026-11-05T12:00:00Z'))).toBe('2026-11-05');
    expect(dayIsInRange('2026-11-30', range)).toBe(true);
    expect(dayIsInRange('2026-12-01', range)).toBe(false);
    expect(dayIsInRange('2026-10-31', range)).toBe(false);
  });
});

describe('adding the increments', () => {
  it('adds to the totals of the screen’s own counts only, keeping the object when nothing moved', () => {
    const totals = { views: 100, likes: 5, saves: 2, shares: 1, follows: 0 };
    const recent = recentOf({ views: 2, follows: 1, impressions: 7 });
    expect(mergeTotals(totals, recent, 'tours')).toEqual({ views: 102, likes: 5, saves: 2, shares: 1, follows: 1 });
    expect(mergeTotals({ impressions: 10, clicks: 1 }, recent, 'ads')).toEqual({ impressions: 17, clicks: 1 });
    expect(mergeTotals(totals, recentOf({ clicks: 4 }), 'tours')).toBe(totals);
    expect(mergeTotals(totals, recentOf({ likes: -1 }), 'tours').likes).toBe(4); // an unlike takes one back
  });

  it('adds to the point of the day and to no other', () => {
    const points: DayPoint[] = [
      { date: '2026-11-29', counts: { views: 4, likes: 0, saves: 0, shares: 0, follows: 0 } },
      { date: '2026-11-30', counts: { views: 1, likes: 1, saves: 0, shares: 0, follows: 0 } },
    ];
    const merged = mergeSeries(points, recentOf({ views: 3, shares: 2 }), 'tours', '2026-11-30');
    expect(merged[0]).toBe(points[0]);
    expect(merged[1]!.counts).toEqual({ views: 4, likes: 1, saves: 0, shares: 2, follows: 0 });
    expect(points[1]!.counts.views).toBe(1); // the cached answer is not changed in place
    expect(mergeSeries(points, recentOf({ views: 3 }), 'tours', '2026-12-01')).toBe(points);
  });

  it('adds to the rows of the tours or ads named, keeping their order', () => {
    const page: TablePage = {
      rows: [
        { id: 'ad-a', title: 'A', previewPicture: null, status: 'active', counts: { impressions: 50, clicks: 2 } },
        { id: 'ad-b', title: 'B', previewPicture: null, status: 'active', counts: { impressions: 10, clicks: 0 } },
      ],
      total: 2,
      limit: 20,
      offset: 0,
    };
    const recent = recentOf({ ads: [{ ad_id: 2, id: 'ad-b', impressions: 60, clicks: 3 }] });
    const merged = mergeRows(page, recent, 'ads');
    expect(merged.rows.map((row) => [row.id, row.counts.impressions, row.counts.clicks])).toEqual([
      ['ad-a', 50, 2],
      ['ad-b', 70, 3],
    ]);
    expect(merged.rows[0]).toBe(page.rows[0]);
    expect(mergeRows(page, recent, 'tours')).toBe(page); // tours' increments only touch tours
    expect(mergeRows(page, recentOf({ ads: [{ ad_id: 3, id: 'ad-elsewhere', impressions: 1, clicks: 0 }] }), 'ads')).toBe(page);
  });

  it('sums only the metrics asked for', () => {
    expect(addCounts({ views: 1 }, { views: 2, likes: 3 }, ['views'])).toEqual({ views: 3 });
    expect(addCounts({}, { likes: 3 }, ['likes'])).toEqual({ likes: 3 });
  });
});
