import { createStore } from '../lib/store';

/**
 * Names of tags the visitor picked. The filter state keeps only ids (what the server wants); the
 * names come from wherever the tag was chosen (a search suggestion, the tag picker) and from the
 * tag dictionary, so chips can say "#Aquarium" rather than "#133".
 */
const labels = createStore<ReadonlyMap<number, string>>(new Map());

export function rememberTagLabels(tags: Iterable<{ id: number; name: string }>): void {
  const next = new Map(labels.get());
  let changed = false;
  for (const tag of tags) {
    if (next.get(tag.id) !== tag.name) {
      next.set(tag.id, tag.name);
      changed = true;
    }
  }
  if (changed) labels.set(next);
}

export function useTagLabels(): ReadonlyMap<number, string> {
  return labels.useStore();
}
