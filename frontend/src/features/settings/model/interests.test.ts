import {
  addInterest,
  canAddInterest,
  interestProblems,
  interestRows,
  interestsAreValid,
  interestsPayload,
  MAX_INTERESTS,
  removeInterest,
  setInterestCategory,
} from './interests';

describe('interests', () => {
  it('allows at most 20 rows', () => {
    let rows = interestRows([]);
    for (let index = 0; index < MAX_INTERESTS + 3; index += 1) rows = addInterest(rows);
    expect(MAX_INTERESTS).toBe(20);
    expect(rows).toHaveLength(20);
    expect(canAddInterest(rows)).toBe(false);
    expect(canAddInterest(removeInterest(rows, rows[0]!.key))).toBe(true);
  });

  it('flags a second row with the same category as a duplicate, and empty rows as required', () => {
    const rows = interestRows([3, 5, 3]);
    const withEmpty = addInterest(rows);
    expect(interestProblems(withEmpty)).toEqual([null, null, 'duplicate', 'required']);
    expect(interestsAreValid(withEmpty)).toBe(false);
  });

  it('is valid once every row has its own category', () => {
    let rows = addInterest(interestRows([3]));
    rows = setInterestCategory(rows, rows[1]!.key, 7);
    expect(interestProblems(rows)).toEqual([null, null]);
    expect(interestsAreValid(rows)).toBe(true);
    expect(interestsPayload(rows)).toEqual({ interests: [{ category_id: 3 }, { category_id: 7 }] });
  });

  it('keeps row keys unique and stable while rows change', () => {
    const rows = interestRows([1, 2]);
    const changed = setInterestCategory(rows, rows[0]!.key, 9);
    expect(changed.map((row) => row.key)).toEqual(rows.map((row) => row.key));
    expect(new Set(addInterest(changed).map((row) => row.key)).size).toBe(3);
  });
});
