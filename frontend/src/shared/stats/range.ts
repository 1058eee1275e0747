/**
 * A range of days a statistics screen covers (`date_from`, `date_to`): the admins' statistics count
 * UTC days, a creator's analytics the days of the viewer's time zone; the arithmetic is the same. The
 * admins' page keeps it in its link: `?days=7` for a preset (a bookmark stays "the last 7 days"), `?from=…&to=…`
 * for days picked on the calendar, nothing for the default (the last 30 days). The server answers 400
 * past 366 days; the page never asks for that.
 */

/** At most this many days per call (app/core/daily_series.py MAX_DAYS). */
export const MAX_DAYS = 366;
export const PRESET_DAYS = [7, 30, 90] as const;
export type PresetDays = (typeof PRESET_DAYS)[number];
export const DEFAULT_DAYS: PresetDays = 30;

/** Both ends included, ISO dates (YYYY-MM-DD). */
export interface DayRange {
  from: string;
  to: string;
}

export type RangeChoice = { kind: 'preset'; days: PresetDays } | ({ kind: 'custom' } & DayRange);

export type RangeProblem = 'invalidDate' | 'order' | 'tooLong';

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_MS = 86_400_000;

/** A real calendar day written YYYY-MM-DD (2025-02-30 is not one). */
export function isIsoDate(text: string | null | undefined): text is string {
  if (!text) return false;
  const match = ISO_DATE.exec(text);
  if (!match) return false;
  const [, year, month, day] = match.map(Number) as [number, number, number, number];
  const moment = new Date(Date.UTC(year, month - 1, day));
  return moment.getUTCFullYear() === year && moment.getUTCMonth() === month - 1 && moment.getUTCDate() === day;
}

function toUtcMs(iso: string): number {
  const [year, month, day] = iso.split('-').map(Number) as [number, number, number];
  return Date.UTC(year, month - 1, day);
}

function fromUtcMs(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Today's UTC day: the server counts UTC days. */
export function todayUtc(now: Date = new Date()): string {
  return fromUtcMs(now.getTime());
}

/** Today's day in an IANA time zone (the creators' analytics count the viewer's own days). */
export function todayIn(timeZone: string, now: Date = new Date()): string {
  // en-CA writes YYYY-MM-DD; the parts are read one by one so no locale quirk can change the order.
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(now);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((item) => item.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')}`;
}

export function addDays(iso: string, days: number): string {
  return fromUtcMs(toUtcMs(iso) + days * DAY_MS);
}

/** How many days the range covers, both ends included. */
export function dayCount(range: DayRange): number {
  return Math.round((toUtcMs(range.to) - toUtcMs(range.from)) / DAY_MS) + 1;
}

export function isPresetDays(value: number): value is PresetDays {
  return (PRESET_DAYS as readonly number[]).includes(value);
}

/** What is wrong with a range, or null when the server would take it. */
export function rangeProblem(from: string | null | undefined, to: string | null | undefined): RangeProblem | null {
  if (!isIsoDate(from) || !isIsoDate(to)) return 'invalidDate';
  if (from > to) return 'order';
  if (dayCount({ from, to }) > MAX_DAYS) return 'tooLong';
  return null;
}

/** The days a choice stands for on `today` (a preset ends today). */
export function resolveRange(choice: RangeChoice, today: string): DayRange {
  if (choice.kind === 'custom') return { from: choice.from, to: choice.to };
  return { from: addDays(today, -(choice.days - 1)), to: today };
}

export interface ParsedRange {
  choice: RangeChoice;
  /** Set when the link asked for something the server would refuse: the default is shown instead. */
  problem: RangeProblem | null;
}

const DEFAULT_CHOICE: RangeChoice = { kind: 'preset', days: DEFAULT_DAYS };

/** The range a link asks for; a bad one falls back to the default and says why. */
export function parseRangeParams(params: URLSearchParams): ParsedRange {
  const from = params.get('from');
  const to = params.get('to');
  if (from !== null || to !== null) {
    const problem = rangeProblem(from, to);
    if (problem) return { choice: DEFAULT_CHOICE, problem };
    return { choice: { kind: 'custom', from: from!, to: to! }, problem: null };
  }
  const days = params.get('days');
  if (days === null) return { choice: DEFAULT_CHOICE, problem: null };
  const count = Number(days);
  if (/^\d+$/.test(days) && isPresetDays(count)) return { choice: { kind: 'preset', days: count }, problem: null };
  return { choice: DEFAULT_CHOICE, problem: count > MAX_DAYS ? 'tooLong' : 'invalidDate' };
}

/** The link's query for a choice (other parameters of the link are kept). */
export function writeRangeParams(choice: RangeChoice, current: URLSearchParams = new URLSearchParams()): URLSearchParams {
  const params = new URLSearchParams(current);
  ['from', 'to', 'days'].forEach((key) => params.delete(key));
  if (choice.kind === 'custom') {
    params.set('from', choice.from);
    params.set('to', choice.to);
  } else if (choice.days !== DEFAULT_DAYS) {
    params.set('days', String(choice.days));
  }
  return params;
}

/** A picked pair of days as a choice: a preset when it is one ending today, else custom. */
export function choiceFromDays(range: DayRange, today: string): RangeChoice {
  const days = dayCount(range);
  if (range.to === today && isPresetDays(days)) return { kind: 'preset', days };
  return { kind: 'custom', ...range };
}
