/** Numbers and days as the reader's language writes them (en: 1,234 · 5 Mar 2026; ru: 1 234 · 5 мар. 2026 г.). */

const numberFormats = new Map<string, Intl.NumberFormat>();

export function formatNumber(value: number, language: string): string {
  let format = numberFormats.get(language);
  if (!format) {
    format = new Intl.NumberFormat(language, { maximumFractionDigits: 0 });
    numberFormats.set(language, format);
  }
  return format.format(value);
}

const dayFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * A UTC day (YYYY-MM-DD) written out: day and month, and the year when asked (a range over two
 * years, the range's ends). UTC both ways, so no time zone moves it to the day before.
 */
export function formatDay(isoDate: string, language: string, withYear: boolean): string {
  const key = `${language}|${withYear}`;
  let format = dayFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(language, { day: 'numeric', month: 'short', year: withYear ? 'numeric' : undefined, timeZone: 'UTC' });
    dayFormats.set(key, format);
  }
  return format.format(new Date(`${isoDate}T00:00:00Z`));
}

/** Whether two days are in different years (the chart's days then carry the year). */
export function spansYears(from: string, to: string): boolean {
  return from.slice(0, 4) !== to.slice(0, 4);
}
