/** Spec §1/§5/§9: up to 20 interests (categories), no duplicates, each row needs a category. */
export const MAX_INTERESTS = 20;

export interface InterestRow {
  /** Stable across edits, so React keeps each row's input while rows are added and removed. */
  key: string;
  categoryId: number | null;
}

export type InterestProblem = 'required' | 'duplicate';

let nextKey = 0;
const newKey = () => `interest-${++nextKey}`;

export function interestRows(categoryIds: readonly number[]): InterestRow[] {
  return categoryIds.map((categoryId) => ({ key: newKey(), categoryId }));
}

export function canAddInterest(rows: readonly InterestRow[]): boolean {
  return rows.length < MAX_INTERESTS;
}

/** A new empty row, unless the limit is reached (then the rows come back unchanged). */
export function addInterest(rows: readonly InterestRow[]): InterestRow[] {
  return canAddInterest(rows) ? [...rows, { key: newKey(), categoryId: null }] : [...rows];
}

export function removeInterest(rows: readonly InterestRow[], key: string): InterestRow[] {
  return rows.filter((row) => row.key !== key);
}

export function setInterestCategory(rows: readonly InterestRow[], key: string, categoryId: number | null): InterestRow[] {
  return rows.map((row) => (row.key === key ? { ...row, categoryId } : row));
}

/** Each row's problem, if any: no category chosen, or a category an earlier row already has. */
export function interestProblems(rows: readonly InterestRow[]): (InterestProblem | null)[] {
  const seen = new Set<number>();
  return rows.map(({ categoryId }) => {
    if (categoryId === null) return 'required';
    if (seen.has(categoryId)) return 'duplicate';
    seen.add(categoryId);
    return null;
  });
}

export function interestsAreValid(rows: readonly InterestRow[]): boolean {
  return rows.length <= MAX_INTERESTS && interestProblems(rows).every((problem) => problem === null);
}

/** The PUT user-interests body, in the order shown. */
export function interestsPayload(rows: readonly InterestRow[]): { interests: { category_id: number | null }[] } {
  return { interests: rows.map((row) => ({ category_id: row.categoryId })) };
}
