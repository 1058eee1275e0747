import { formatDay, formatNumber, spansYears } from '../../../shared/stats/format';
import { allZero, busiestDay, chartPoints, domainStats } from './series';

const daily = (counts: number[], from = '2026-03-01') => ({
  date_from: from,
  date_to: `2026-03-0${counts.length}`,
  total: counts.reduce((sum, count) => sum + count, 0),
  series: counts.map((count, index) => ({ date: `2026-03-0${index + 1}`, count })),
});

describe('series shaping', () => {
  it('keeps the range total, the overall total and every day of the series', () => {
    const stats = domainStats('tours', 420, daily([2, 0, 5]));
    expect(stats).toEqual({
      domain: 'tours',
      inRange: 7,
      allTime: 420,
      range: { from: '2026-03-01', to: '2026-03-03' },
      series: [
        { date: '2026-03-01', count: 2 },
        { date: '2026-03-02', count: 0 },
        { date: '2026-03-03', count: 5 },
      ],
    });
  });

  it('labels each day for the chart', () => {
    const points = chartPoints(domainStats('users', 3, daily([1, 2])), (date) => `day ${date.slice(-2)}`);
    expect(points).toEqual([
      { day: 'day 01', date: '2026-03-01', count: 1 },
      { day: 'day 02', date: '2026-03-02', count: 2 },
    ]);
  });

  it('finds the busiest day (the earliest of equals), none when every day is 0', () => {
    expect(busiestDay(domainStats('users', 0, daily([1, 4, 4])))).toEqual({ date: '2026-03-02', count: 4 });
    expect(busiestDay(domainStats('users', 0, daily([0, 0])))).toBeNull();
  });

  it('is empty only when nothing at all was created in the range', () => {
    const quiet = domainStats('users', 10, daily([0, 0]));
    const busy = domainStats('tours', 10, daily([0, 1]));
    expect(allZero([quiet, { ...quiet, domain: 'vendors' }])).toBe(true);
    expect(allZero([quiet, busy])).toBe(false);
    expect(allZero([])).toBe(false);
  });
});

describe('numbers and days in the reader’s language', () => {
  it('groups digits as each language does', () => {
    expect(formatNumber(12345, 'en')).toBe('12,345');
    expect(formatNumber(12345, 'ru')).toBe('12\u00a0345');
  });

  it('writes UTC days without moving them to the day before', () => {
    expect(formatDay('2026-03-05', 'en', false)).toBe('Mar 5');
    expect(formatDay('2026-03-05', 'en', true)).toBe('Mar 5, 2026');
    expect(formatDay('2026-03-05', 'ru', false)).toBe('5 мар.');
    expect(spansYears('2025-12-01', '2026-01-31')).toBe(true);
    expect(spansYears('2026-01-01', '2026-01-31')).toBe(false);
  });
});
