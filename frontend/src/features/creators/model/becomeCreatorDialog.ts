import { createStore } from '../../../shared/lib/store';

/**
 * Whether the become-creator dialog (spec §2 "become creator and info") is open. The menu's Profile
 * entry opens it (the app action 'profile'); the app renders it once (BecomeCreatorHost).
 */
const opened = createStore(false);

export function openBecomeCreator(): void {
  opened.set(true);
}

export function closeBecomeCreator(): void {
  opened.set(false);
}

export function useBecomeCreatorOpened(): boolean {
  return opened.useStore();
}
