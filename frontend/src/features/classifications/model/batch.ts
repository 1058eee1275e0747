import type { BatchRowOut, BatchUploadAnswer } from '../../../shared/api/generated/types.gen';

/** What an admin uploads: tags, or categories with their subcategories (app/classifications/batch.py). */
export type BatchKind = 'categories' | 'tags';

export const BATCH_MAX_BYTES = 2 * 1024 * 1024;
export const BATCH_ACCEPT = '.csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** The columns of each kind of file, in the order of its template (the server takes any order). */
export const BATCH_COLUMNS: Record<BatchKind, readonly string[]> = {
  categories: ['kind', 'name', 'name_ru', 'id', 'category', 'is_active'],
  tags: ['kind', 'name', 'name_ru', 'id', 'topic_type', 'topic', 'description', 'is_active'],
};

const TEMPLATE_ROWS: Record<BatchKind, readonly (readonly string[])[]> = {
  categories: [
    ['category', 'Lighthouses', 'Маяки', '', '', 'yes'],
    ['subcategory', 'Harbour lights', 'Портовые огни', '', 'Lighthouses', 'yes'],
  ],
  tags: [['tag', 'Spiral staircase', 'Винтовая лестница', '', 'category', 'Lighthouses', 'A staircase winding round a column', 'yes']],
};

function csvCell(value: string): string {
  return /[",\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** A CSV template of a kind: its header and example rows, UTF-8 as the server reads it. */
export function batchTemplate(kind: BatchKind): string {
  return [BATCH_COLUMNS[kind], ...TEMPLATE_ROWS[kind]].map((row) => row.map(csvCell).join(',')).join('\n') + '\n';
}

/** Checks the server repeats: a CSV or XLSX name and at most 2 MB (it reads the content, not the name). */
export function batchFileProblem(file: File): 'type' | 'size' | null {
  if (!/\.(csv|xlsx)$/i.test(file.name)) return 'type';
  if (file.size > BATCH_MAX_BYTES) return 'size';
  return null;
}

export type BatchPhase = 'checked' | 'refused' | 'applied';

/**
 * What an answer means for the next step: a clean dry run may be applied; a report with a bad row
 * changed nothing and the file needs fixing; a real run without errors is done.
 */
export function batchPhase(answer: BatchUploadAnswer): BatchPhase {
  if (answer.errors > 0) return 'refused';
  return answer.applied ? 'applied' : 'checked';
}

/** The report's rows, or only its failed ones when asked (a long file's few bad rows). */
export function reportRows(report: readonly BatchRowOut[], onlyErrors: boolean): BatchRowOut[] {
  return onlyErrors ? report.filter((row) => row.status === 'error') : [...report];
}
