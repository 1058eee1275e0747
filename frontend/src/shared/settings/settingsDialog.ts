import { useSyncExternalStore } from 'react';

/** The tabs of the settings modal (spec §2: account, vendor API tokens, interests). */
export type SettingsTab = 'account' | 'interests';

export interface SettingsDialogState {
  opened: boolean;
  tab: SettingsTab;
}

/**
 * Whether the settings modal is open, and on which tab. The profile menu opens it on Account, the
 * getting-started guide on Interests; the app renders the modal once.
 */
let state: SettingsDialogState = { opened: false, tab: 'account' };
const listeners = new Set<() => void>();

function setState(next: SettingsDialogState): void {
  state = next;
  listeners.forEach((listener) => listener());
}

export function openSettingsDialog(tab: SettingsTab = 'account'): void {
  setState({ opened: true, tab });
}

export function selectSettingsTab(tab: SettingsTab): void {
  setState({ ...state, tab });
}

export function closeSettingsDialog(): void {
  setState({ ...state, opened: false });
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useSettingsDialog(): SettingsDialogState {
  return useSyncExternalStore(
    subscribe,
    () => state,
    () => state,
  );
}
