import type { SelectedTag } from './mediaForm';
import { canAddTag, selectTags } from './tagSelection';

const tag = (id: number) => ({ id, name: `tag ${id}` });
const manual = (id: number): SelectedTag => ({ ...tag(id), source: 'manual' });
const suggested = (id: number): SelectedTag => ({ ...tag(id), source: 'suggested' });

describe('selectTags (spec §5: at most 10 tags, automatic plus manual)', () => {
  it('replaces earlier suggestions and keeps the tags picked by hand', () => {
    const current = [suggested(1), suggested(2), manual(3)];
    expect(selectTags(current, { type: 'suggested', tags: [tag(4), tag(3), tag(4)] })).toEqual([suggested(4), manual(3)]);
  });

  it('fills only the room the manual tags leave', () => {
    const current = Array.from({ length: 8 }, (_, index) => manual(index));
    const next = selectTags(current, { type: 'suggested', tags: [tag(20), tag(21), tag(22)] });
    expect(next).toHaveLength(10);
    expect(next.filter((item) => item.source === 'suggested').map((item) => item.id)).toEqual([20, 21]);
  });

  it('adds a tag once and never an eleventh', () => {
    expect(selectTags([manual(1)], { type: 'add', tag: tag(1) })).toEqual([manual(1)]);
    const full = Array.from({ length: 10 }, (_, index) => suggested(index));
    expect(canAddTag(full)).toBe(false);
    expect(selectTags(full, { type: 'add', tag: tag(99) })).toHaveLength(10);
    expect(selectTags(full.slice(1), { type: 'add', tag: tag(99) }).at(-1)).toEqual(manual(99));
  });

  it('removes a tag of either kind', () => {
    expect(selectTags([suggested(1), manual(2)], { type: 'remove', id: 1 })).toEqual([manual(2)]);
  });
});
