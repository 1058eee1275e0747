import {
  addDays,
  choiceFromDays,
  dayCount,
  isIsoDate,
  MAX_DAYS,
  parseRangeParams,
  rangeProblem,
  resolveRange,
  todayIn,
  todayUtc,
  writeRangeParams,
} from './range';

const params = (query: string) => new URLSearchParams(query);

describe('days', () => {
  it('reads only real calendar days written YYYY-MM-DD', () => {
    expect(isIsoDate('2024-02-29')).toBe(true);
    expect(isIsoDate('2025-02-29')).toBe(false);
    expect(isIsoDate('2025-13-01')).toBe(false);
    expect(isIsoDate('2025-1-01')).toBe(false);
    expect(isIsoDate('yesterday')).toBe(false);
    expect(isIsoDate(null)).toBe(false);
  });

  it('counts UTC days, both ends included, across months and years', () => {
    expect(todayUtc(new Date('2026-03-01T23:30:00-05:00'))).toBe('2026-03-02'); // already the 2nd in UTC
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addDays('2026-01-01', -1)).toBe('2025-12-31');
    expect(dayCount({ from: '2026-03-01', to: '2026-03-01' })).toBe(1);
    expect(dayCount({ from: '2024-01-01', to: '2024-12-31' })).toBe(366);
  });

  it("names today as the viewer's time zone has it", () => {
    const moment = new Date('2026-03-02T03:30:00Z');
    expect(todayIn('UTC', moment)).toBe('2026-03-02');
    expect(todayIn('America/New_York', moment)).toBe('2026-03-01'); // still the evening before
    expect(todayIn('Asia/Tokyo', new Date('2026-12-31T20:00:00Z'))).toBe('2027-01-01');
  });
});

describe('range validation (the server answers 400 otherwise)', () => {
  it('takes up to 366 days and refuses more, a reversed range and unreadable days', () => {
    expect(rangeProblem('2024-01-01', '2024-12-31')).toBeNull();
    expect(MAX_DAYS).toBe(366);
    expect(rangeProblem('2024-01-01', '2025-01-01')).toBe('tooLong');
    expect(rangeProblem('2025-02-01', '2025-01-31')).toBe('order');
    expect(rangeProblem('2025-02-30', '2025-03-01')).toBe('invalidDate');
    expect(rangeProblem(null, '2025-03-01')).toBe('invalidDate');
  });

  it('makes a preset end today', () => {
    expect(resolveRange({ kind: 'preset', days: 7 }, '2026-03-05')).toEqual({ from: '2026-02-27', to: '2026-03-05' });
    expect(resolveRange({ kind: 'preset', days: 30 }, '2026-03-05')).toEqual({ from: '2026-02-04', to: '2026-03-05' });
    expect(resolveRange({ kind: 'custom', from: '2025-01-01', to: '2025-01-31' }, '2026-03-05')).toEqual({ from: '2025-01-01', to: '2025-01-31' });
  });

  it('recognises picked days that are a preset', () => {
    expect(choiceFromDays({ from: '2026-02-27', to: '2026-03-05' }, '2026-03-05')).toEqual({ kind: 'preset', days: 7 });
    expect(choiceFromDays({ from: '2026-02-26', to: '2026-03-05' }, '2026-03-05')).toEqual({ kind: 'custom', from: '2026-02-26', to: '2026-03-05' });
    expect(choiceFromDays({ from: '2026-02-26', to: '2026-03-04' }, '2026-03-05')).toEqual({ kind: 'custom', from: '2026-02-26', to: '2026-03-04' });
  });
});

describe('the range in the query string', () => {
  it('defaults to the last 30 days', () => {
    expect(parseRangeParams(params(''))).toEqual({ choice: { kind: 'preset', days: 30 }, problem: null });
  });

  it('reads a preset and a custom range', () => {
    expect(parseRangeParams(params('days=90'))).toEqual({ choice: { kind: 'preset', days: 90 }, problem: null });
    expect(parseRangeParams(params('from=2025-03-01&to=2025-03-31&tab=x'))).toEqual({
      choice: { kind: 'custom', from: '2025-03-01', to: '2025-03-31' },
      problem: null,
    });
  });

  it('falls back to the default and says why for a link the server would refuse', () => {
    const fallback = { kind: 'preset', days: 30 };
    expect(parseRangeParams(params('from=2024-01-01&to=2025-01-01'))).toEqual({ choice: fallback, problem: 'tooLong' });
    expect(parseRangeParams(params('from=2025-03-31&to=2025-03-01'))).toEqual({ choice: fallback, problem: 'order' });
    expect(parseRangeParams(params('from=2025-03-01'))).toEqual({ choice: fallback, problem: 'invalidDate' });
    expect(parseRangeParams(params('days=12'))).toEqual({ choice: fallback, problem: 'invalidDate' });
    expect(parseRangeParams(params('days=400'))).toEqual({ choice: fallback, problem: 'tooLong' });
    expect(parseRangeParams(params('days=7.5'))).toEqual({ choice: fallback, problem: 'invalidDate' });
  });

  it('writes a choice so that reading it back gives the same choice, keeping other parameters', () => {
    const choices = [
      { kind: 'preset', days: 7 },
      { kind: 'preset', days: 30 },
      { kind: 'preset', days: 90 },
      { kind: 'custom', from: '2025-01-01', to: '2025-12-31' },
    ] as const;
    for (const choice of choices) expect(parseRangeParams(writeRangeParams(choice)).choice).toEqual(choice);
    expect(writeRangeParams({ kind: 'preset', days: 30 }).toString()).toBe('');
    expect(writeRangeParams({ kind: 'preset', days: 7 }, params('from=2025-01-01&to=2025-01-02&x=1')).toString()).toBe('x=1&days=7');
  });
});
