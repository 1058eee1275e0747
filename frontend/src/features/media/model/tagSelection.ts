import { MAX_TAGS, type SelectedTag } from './mediaForm';

export type TagAction =
  | { type: 'suggested'; tags: ReadonlyArray<{ id: number; name: string }> }
  | { type: 'add'; tag: { id: number; name: string } }
  | { type: 'remove'; id: number };

/**
 * The tour's tags, at most 10 in all (spec §5 "automatic plus manual"). A new suggestion replaces
 * the previous suggestions (the title or description changed) but never pushes out a tag the user
 * picked; suggestions fill only the room the manual tags leave.
 */
export function selectTags(current: readonly SelectedTag[], action: TagAction): SelectedTag[] {
  switch (action.type) {
    case 'suggested': {
      const manual = current.filter((tag) => tag.source === 'manual');
      const taken = new Set(manual.map((tag) => tag.id));
      const room = Math.max(0, MAX_TAGS - manual.length);
      const suggested = uniqueById(action.tags)
        .filter((tag) => !taken.has(tag.id))
        .slice(0, room)
        .map((tag) => ({ id: tag.id, name: tag.name, source: 'suggested' as const }));
      return [...suggested, ...manual];
    }
    case 'add':
      if (current.length >= MAX_TAGS || current.some((tag) => tag.id === action.tag.id)) return [...current];
      return [...current, { id: action.tag.id, name: action.tag.name, source: 'manual' }];
    case 'remove':
      return current.filter((tag) => tag.id !== action.id);
  }
}

function uniqueById<T extends { id: number }>(tags: readonly T[]): T[] {
  const seen = new Set<number>();
  return tags.filter((tag) => (seen.has(tag.id) ? false : (seen.add(tag.id), true)));
}

export function canAddTag(current: readonly SelectedTag[]): boolean {
  return current.length < MAX_TAGS;
}
