import { diffRows, fieldLabel, itemSummary, showValue } from './summary';

describe('diffRows', () => {
  it('puts the changed fields first, the name before the rest, and marks them', () => {
    const rows = diffRows({ title: 'Old', description: 'Same', link: 'a' }, { title: 'New', description: 'Same', link: 'b' });
    expect(rows.map((row) => [row.field, row.changed])).toEqual([
      ['title', true],
      ['link', true],
      ['description', false],
    ]);
    expect(rows[0]).toMatchObject({ current: 'Old', proposed: 'New' });
  });

  it('shows a new item by its filled fields only, hiding the ids', () => {
    const rows = diffRows(null, { guid: 'g', description: 'Words', preview_picture: null, title: 'T', vt_website: '' });
    expect(rows.map((row) => row.field)).toEqual(['title', 'description']);
  });

  it('keeps a published field the proposal does not change', () => {
    const rows = diffRows({ title: 'Same', phone: '123' }, { title: 'Other' });
    expect(rows.find((row) => row.field === 'phone')).toMatchObject({ current: '123', proposed: '123', changed: false });
  });

  it('draws nothing for an answer without versions', () => {
    expect(diffRows(null, null)).toEqual([]);
    expect(diffRows('html' as unknown as Record<string, unknown>, undefined)).toEqual([]);
  });
});

describe('showValue', () => {
  it('reads values as text', () => {
    expect(showValue(null)).toBeNull();
    expect(showValue('')).toBeNull();
    expect(showValue(false)).toBe('false');
    expect(showValue(['a', 2])).toBe('a, 2');
    expect(showValue({ street: null, city: 'Saint-Malo', country: 'FR' })).toBe('City: Saint-Malo · Country: FR');
    expect(showValue([{ id: 1 }])).toBe('[{"id":1}]');
  });

  it('names fields as words', () => {
    expect(fieldLabel('preview_picture')).toBe('Preview picture');
    expect(fieldLabel('creatorId')).toBe('Creator id');
  });
});

describe('itemSummary', () => {
  it('prefers the server summary and falls back to the payload', () => {
    expect(itemSummary({ id: 1, payload: { title: 'P' }, summary: { title: 'S', username: 'u', preview_picture: null, link: null } }).title).toBe('S');
    expect(itemSummary({ id: 1, payload: { category: 'Boats', subcategory: 'Ferries' }, summary: null }).title).toBe('Boats › Ferries');
    expect(itemSummary({ id: 1, payload: {}, summary: null }).title).toBeNull();
  });
});
