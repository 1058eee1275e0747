import type { AnalyticsKind, RangeOfDays } from './metrics';

export type CsvValue = string | number | null;

// Spreadsheets run a cell that starts with one of these as a formula: a tour titled "=HYPERLINK(…)"
// must stay text in the creator's spreadsheet (OWASP "CSV injection").
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]|^\s|\s$/;

/** One cell as RFC 4180 writes it: quoted (quotes doubled) when it holds a comma, quote, line break or edge space. */
export function csvCell(value: CsvValue): string {
  if (value === null) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** Lines of cells joined with CRLF, as RFC 4180 has it. */
export function csvLines(lines: readonly (readonly CsvValue[])[]): string {
  return lines.map((cells) => cells.map(csvCell).join(',')).join('\r\n');
}

/** A titled section of the file: its name on a line of its own, a header line, the rows. */
export interface CsvSection {
  title: string;
  header: readonly string[];
  rows: readonly (readonly CsvValue[])[];
}

/**
 * Sections one after another with an empty line between them. The file starts with a byte order mark
 * so spreadsheet programs read it as UTF-8 (Russian titles, accented names).
 */
export function csvDocument(sections: readonly CsvSection[]): string {
  return `\uFEFF${sections.map((section) => csvLines([[section.title], section.header, ...section.rows])).join('\r\n\r\n')}\r\n`;
}

/** e.g. touratlas-analytics-2026-11-01_2026-11-30.csv, touratlas-ads-analytics-… for the ads. */
export function csvFileName(kind: AnalyticsKind, range: Pick<RangeOfDays, 'from' | 'to'>): string {
  const name = kind === 'ads' ? 'touratlas-ads-analytics' : 'touratlas-analytics';
  return `${name}-${range.from}_${range.to}.csv`;
}

/** Hands the text to the browser as a file download (built here, nothing is asked of the server). */
export function downloadCsv(text: string, fileName: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // Some browsers read the URL after click() returns: it is let go a moment later.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
