/**
 * `modals.open` and its kin (@mantine/modals) are window events that the ModalsProvider hears. The
 * provider arrives after the first screen (ModalsHost), so a dialog asked for before then is kept here
 * and asked for again once it listens: nothing opened early is lost.
 */
const MODAL_EVENTS = [
  'openModal',
  'openConfirmModal',
  'openContextModal',
  'closeModal',
  'closeContextModal',
  'closeAllModals',
  'updateModal',
  'updateContextModal',
].map((name) => `mantine-modals:${name}`);

let early: { type: string; detail: unknown }[] | null = null;

function record(event: Event): void {
  early?.push({ type: event.type, detail: (event as CustomEvent<unknown>).detail });
}

/** Keep the modal events sent before the provider listens (called once, before the first render). */
export function bufferEarlyModalEvents(): void {
  if (early !== null) return;
  early = [];
  for (const type of MODAL_EVENTS) window.addEventListener(type, record);
}

/** The provider listens now: stop keeping, and send again what was kept, in order. */
export function replayEarlyModalEvents(): void {
  for (const type of MODAL_EVENTS) window.removeEventListener(type, record);
  const kept = early ?? [];
  early = null;
  for (const { type, detail } of kept) window.dispatchEvent(new CustomEvent(type, { detail }));
}
