import { createStore } from '../lib/store';
import { isSignedIn } from './session';

/**
 * Whether the login dialog is open. Any feature may ask for it (signed-out users who try something
 * that needs an account, spec §2 and §4); the app renders the dialog once.
 */
const loginDialogOpen = createStore(false);

export function openLoginDialog(): void {
  loginDialogOpen.set(true);
}

export function closeLoginDialog(): void {
  loginDialogOpen.set(false);
}

export function useLoginDialogOpen(): boolean {
  return loginDialogOpen.useStore();
}

/** An action that needs an account: run it when signed in, otherwise ask the visitor to sign in. */
export function whenSignedIn(action: () => void): () => void {
  return () => {
    if (isSignedIn()) action();
    else openLoginDialog();
  };
}
