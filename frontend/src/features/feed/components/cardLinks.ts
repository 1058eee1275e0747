import { STORAGE_KEYS, writeItem } from '../../../shared/storage/localStore';

/** Spec §2 "Cards": the clicked item's id is remembered (gridItemId) so the grid can return to it. */
export function rememberGridItem(id: string | number): void {
  writeItem(STORAGE_KEYS.gridItemId, String(id));
}
