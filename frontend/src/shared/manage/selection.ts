/**
 * The selection of a manage dashboard (Manage Media's tours by guid, Manage Ads' ads by id): rows are
 * selected, then moved to drafts, published, approved or deleted together.
 */
export type SelectionChange<Key> =
  | { type: 'toggle'; key: Key }
  | { type: 'toggleAll'; visible: readonly Key[] }
  | { type: 'keepOnly'; visible: readonly Key[] }
  | { type: 'clear' };

export function changeSelection<Key>(selected: ReadonlySet<Key>, change: SelectionChange<Key>): ReadonlySet<Key> {
  switch (change.type) {
    case 'toggle': {
      const next = new Set(selected);
      if (!next.delete(change.key)) next.add(change.key);
      return next;
    }
    case 'toggleAll': {
      const allSelected = change.visible.length > 0 && change.visible.every((key) => selected.has(key));
      return allSelected ? new Set() : new Set(change.visible);
    }
    case 'keepOnly': {
      // After a filter change or a reload, a selection of rows no longer shown would act unseen.
      const visible = new Set(change.visible);
      const next = new Set([...selected].filter((key) => visible.has(key)));
      return next.size === selected.size ? selected : next;
    }
    case 'clear':
      return selected.size === 0 ? selected : new Set();
  }
}
