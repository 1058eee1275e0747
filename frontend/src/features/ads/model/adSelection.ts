import { changeSelection } from '../../../shared/manage/selection';

/** Manage Ads: ads are selected (by id), then moved to drafts, published or deleted together. */
export type AdSelectionAction =
  | { type: 'toggle'; id: number }
  | { type: 'toggleAll'; visible: readonly number[] }
  | { type: 'keepOnly'; visible: readonly number[] }
  | { type: 'clear' };

export function adSelectionReducer(selected: ReadonlySet<number>, action: AdSelectionAction): ReadonlySet<number> {
  return changeSelection(selected, action.type === 'toggle' ? { type: 'toggle', key: action.id } : action);
}
