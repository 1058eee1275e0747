import { useSyncExternalStore } from 'react';

/**
 * Which media form is open, if any (spec §2 "add/edit media form"). The top bar, the menu, the tour
 * page and the manage-media dashboard open it; the media feature renders it once.
 */
export type MediaFormRequest = { mode: 'add' } | { mode: 'edit'; guid: string };

let current: MediaFormRequest | null = null;
const listeners = new Set<() => void>();

function set(next: MediaFormRequest | null): void {
  current = next;
  listeners.forEach((listener) => listener());
}

export function openMediaForm(request: MediaFormRequest = { mode: 'add' }): void {
  set(request);
}

export function closeMediaForm(): void {
  set(null);
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useMediaFormRequest(): MediaFormRequest | null {
  return useSyncExternalStore(
    subscribe,
    () => current,
    () => current,
  );
}
