/** Manage Ads: ads are selected (by id), then moved to drafts, published or deleted together. */
export type AdSelectionAction =
  | { type: 'toggle'; id: number }
  | { type: 'toggleAll'; visible: readonly number[] }
  | { type: 'keepOnly'; visible: readonly number[] }
  | { type: 'clear' };

export function adSelectionReducer(selected: ReadonlySet<number>, action: AdSelectionAction): ReadonlySet<number> {
  switch (action.type) {
    case 'toggle': {
      const next = new Set(selected);
      if (!next.delete(action.id)) next.add(action.id);
      return next;
    }
    case 'toggleAll': {
      const allSelected = action.visible.length > 0 && action.visible.every((id) => selected.has(id));
      return allSelected ? new Set() : new Set(action.visible);
    }
    case 'keepOnly': {
      // After a filter change or a reload, a selection of ads no longer shown would act unseen.
      const visible = new Set(action.visible);
      const next = new Set([...selected].filter((id) => visible.has(id)));
      return next.size === selected.size ? selected : next;
    }
    case 'clear':
      return selected.size === 0 ? selected : new Set();
  }
}
