import { createStore } from '../lib/store';

/** The tabs of the settings modal (spec §2: account, vendor API tokens, interests, billing subscriptions). */
export type SettingsTab = 'account' | 'vendors' | 'interests' | 'billing';

export interface SettingsDialogState {
  opened: boolean;
  tab: SettingsTab;
}

/**
 * Whether the settings modal is open, and on which tab. The profile menu opens it on Account, the
 * getting-started guide on Interests; the app renders the modal once.
 */
const dialog = createStore<SettingsDialogState>({ opened: false, tab: 'account' });

export function openSettingsDialog(tab: SettingsTab = 'account'): void {
  dialog.set({ opened: true, tab });
}

export function selectSettingsTab(tab: SettingsTab): void {
  dialog.update((state) => ({ ...state, tab }));
}

export function closeSettingsDialog(): void {
  dialog.update((state) => ({ ...state, opened: false }));
}

export function useSettingsDialog(): SettingsDialogState {
  return dialog.useStore();
}
