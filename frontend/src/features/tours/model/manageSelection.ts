import { changeSelection } from '../../../shared/manage/selection';

/** Spec §2 manage media dashboard: tours are selected, then moved to drafts, deleted or approved together. */
export type SelectionAction =
  | { type: 'toggle'; guid: string }
  | { type: 'toggleAll'; visible: readonly string[] }
  | { type: 'keepOnly'; visible: readonly string[] }
  | { type: 'clear' };

export function selectionReducer(selected: ReadonlySet<string>, action: SelectionAction): ReadonlySet<string> {
  return changeSelection(selected, action.type === 'toggle' ? { type: 'toggle', key: action.guid } : action);
}

/** Spec §6: up to 10 featured tours per creator. */
export const MAX_FEATURED = 10;

/** The featured order after dragging `from` onto `to` (both guids); unchanged for an unknown guid. */
export function reorder(order: readonly string[], from: string, to: string): string[] {
  const fromIndex = order.indexOf(from);
  const toIndex = order.indexOf(to);
  if (fromIndex < 0 || toIndex < 0 || fromIndex === toIndex) return [...order];
  const next = [...order];
  const [moved] = next.splice(fromIndex, 1);
  if (moved !== undefined) next.splice(toIndex, 0, moved);
  return next;
}

/** Feature or unfeature a tour: a new one goes last; never more than MAX_FEATURED. */
export function toggleFeatured(order: readonly string[], guid: string): string[] {
  if (order.includes(guid)) return order.filter((item) => item !== guid);
  return order.length >= MAX_FEATURED ? [...order] : [...order, guid];
}
