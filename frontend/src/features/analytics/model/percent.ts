const percentFormats = new Map<string, Intl.NumberFormat>();

/** A rate (0.0523) as the reader's language writes a percentage (en: 5.23%, ru: 5,23 %). */
export function formatPercent(rate: number, language: string): string {
  let format = percentFormats.get(language);
  if (!format) {
    format = new Intl.NumberFormat(language, { style: 'percent', maximumFractionDigits: 2 });
    percentFormats.set(language, format);
  }
  return format.format(rate);
}
