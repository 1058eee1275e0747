import { createStore } from '../lib/store';

/**
 * Which media form is open, if any (spec §2 "add/edit media form"). The top bar, the menu, the tour
 * page and the manage-media dashboard open it; the media feature renders it once.
 */
export type MediaFormRequest = { mode: 'add' } | { mode: 'edit'; guid: string };

const openRequest = createStore<MediaFormRequest | null>(null);

export function openMediaForm(request: MediaFormRequest = { mode: 'add' }): void {
  openRequest.set(request);
}

export function closeMediaForm(): void {
  openRequest.set(null);
}

export function useMediaFormRequest(): MediaFormRequest | null {
  return openRequest.useStore();
}
