import { MAX_FEATURED, reorder, selectionReducer, toggleFeatured } from './manageSelection';

describe('selectionReducer', () => {
  const none: ReadonlySet<string> = new Set();

  it('toggles one tour', () => {
    const one = selectionReducer(none, { type: 'toggle', guid: 'a' });
    expect([...one]).toEqual(['a']);
    expect([...selectionReducer(one, { type: 'toggle', guid: 'a' })]).toEqual([]);
  });

  it('selects every visible tour, or none when all were selected', () => {
    const all = selectionReducer(new Set(['a']), { type: 'toggleAll', visible: ['a', 'b'] });
    expect([...all].sort()).toEqual(['a', 'b']);
    expect([...selectionReducer(all, { type: 'toggleAll', visible: ['a', 'b'] })]).toEqual([]);
    expect([...selectionReducer(none, { type: 'toggleAll', visible: [] })]).toEqual([]);
  });

  it('drops tours that are no longer shown, keeping identity when nothing changes', () => {
    const selected = new Set(['a', 'b']);
    expect([...selectionReducer(selected, { type: 'keepOnly', visible: ['b', 'c'] })]).toEqual(['b']);
    expect(selectionReducer(selected, { type: 'keepOnly', visible: ['a', 'b'] })).toBe(selected);
    expect(selectionReducer(none, { type: 'clear' })).toBe(none);
  });
});

describe('featured order', () => {
  it('moves a dragged tour to where it was dropped', () => {
    expect(reorder(['a', 'b', 'c', 'd'], 'a', 'c')).toEqual(['b', 'c', 'a', 'd']);
    expect(reorder(['a', 'b', 'c', 'd'], 'd', 'b')).toEqual(['a', 'd', 'b', 'c']);
    expect(reorder(['a', 'b'], 'x', 'a')).toEqual(['a', 'b']);
  });

  it('features up to 10 tours and unfeatures any', () => {
    expect(toggleFeatured(['a'], 'b')).toEqual(['a', 'b']);
    expect(toggleFeatured(['a', 'b'], 'a')).toEqual(['b']);
    const full = Array.from({ length: MAX_FEATURED }, (_, index) => `t${index}`);
    expect(toggleFeatured(full, 'extra')).toEqual(full);
  });
});
