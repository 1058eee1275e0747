import type { CsvSection, CsvValue } from './csv';
import { type AnalyticsKind, clickThroughRate, type Counts, type DayPoint, KIND_METRICS, type Metric, type TableRow } from './metrics';

export type ExportLabel = Metric | 'ctr' | 'date' | 'id' | 'title' | 'status' | 'totals' | 'daily' | 'table';

export interface ExportInput {
  kind: AnalyticsKind;
  totals: Counts;
  points: readonly DayPoint[];
  rows: readonly TableRow[];
  /** Column and section names in the reader's language. */
  label: (name: ExportLabel) => string;
}

/** Clicks per 100 impressions with two decimals (a number a spreadsheet can sum); empty when nothing was shown. */
export function ctrPercent(counts: Counts): number | null {
  const rate = clickThroughRate(counts);
  return rate === null ? null : Math.round(rate * 10_000) / 100;
}

function countCells(counts: Counts, metrics: readonly Metric[]): CsvValue[] {
  return metrics.map((metric) => counts[metric] ?? 0);
}

/** The range's totals, its daily series and the whole table, as the three sections of the CSV file. */
export function analyticsSections({ kind, totals, points, rows, label }: ExportInput): CsvSection[] {
  const metrics = KIND_METRICS[kind];
  const withCtr = kind === 'ads';
  const daily = [metrics.reach, ...metrics.activity];
  return [
    {
      title: label('totals'),
      header: [...metrics.totals.map(label), ...(withCtr ? [label('ctr')] : [])],
      rows: [[...countCells(totals, metrics.totals), ...(withCtr ? [ctrPercent(totals)] : [])]],
    },
    {
      title: label('daily'),
      header: [label('date'), ...daily.map(label)],
      rows: points.map((point) => [point.date, ...countCells(point.counts, daily)]),
    },
    {
      title: label('table'),
      header: [label('id'), label('title'), label('status'), ...metrics.row.map(label), ...(withCtr ? [label('ctr')] : [])],
      rows: rows.map((row) => [row.id, row.title, row.status, ...countCells(row.counts, metrics.row), ...(withCtr ? [ctrPercent(row.counts)] : [])]),
    },
  ];
}
