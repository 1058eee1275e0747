import { useSyncExternalStore } from 'react';

/**
 * Names of tags the visitor picked. The filter state keeps only ids (what the server wants); the
 * names come from wherever the tag was chosen (a search suggestion, the tag picker) and from the
 * tag dictionary, so chips can say "#Aquarium" rather than "#133".
 */
let labels: ReadonlyMap<number, string> = new Map();
const listeners = new Set<() => void>();

export function rememberTagLabels(tags: Iterable<{ id: number; name: string }>): void {
  const next = new Map(labels);
  let changed = false;
  for (const tag of tags) {
    if (next.get(tag.id) !== tag.name) {
      next.set(tag.id, tag.name);
      changed = true;
    }
  }
  if (!changed) return;
  labels = next;
  listeners.forEach((listener) => listener());
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const snapshot = () => labels;

export function useTagLabels(): ReadonlyMap<number, string> {
  return useSyncExternalStore(subscribe, snapshot, snapshot);
}
