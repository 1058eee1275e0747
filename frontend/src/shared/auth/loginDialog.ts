import { useSyncExternalStore } from 'react';

import { isSignedIn } from './session';

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

/** An action that needs an account: run it when signed in, otherwise ask the visitor to sign in. */
export function whenSignedIn(action: () => void): () => void {
  return () => {
    if (isSignedIn()) action();
    else openLoginDialog();
  };
}
