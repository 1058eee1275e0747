import { createStore } from '../lib/store';

export interface HostRequestDialogState {
  opened: boolean;
}

/**
 * Spec §2 "custom provider request": whether the host request dialog is open. The media form's host
 * picker ("my host is not listed") and Settings → vendor API tokens open it; the app renders it once
 * (features/vendors HostRequestHost).
 */
const dialog = createStore<HostRequestDialogState>({ opened: false });

export function openHostRequestDialog(): void {
  dialog.set({ opened: true });
}

export function closeHostRequestDialog(): void {
  dialog.set({ opened: false });
}

export function useHostRequestDialog(): HostRequestDialogState {
  return dialog.useStore();
}
