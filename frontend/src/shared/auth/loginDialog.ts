import { useSyncExternalStore } from 'react';

/**
 * Whether the login dialog is open. Any feature may ask for it (signed-out users who try something
 * that needs an account, spec §2 and §4); the app renders the dialog once.
 */
let open = false;
const listeners = new Set<() => void>();

function setOpen(next: boolean): void {
  open = next;
  listeners.forEach((listener) => listener());
}

export function openLoginDialog(): void {
  setOpen(true);
}

export function closeLoginDialog(): void {
  setOpen(false);
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useLoginDialogOpen(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => open,
    () => open,
  );
}
