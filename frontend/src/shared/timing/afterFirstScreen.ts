import { createStore } from '../lib/store';

/** The longest the deferred parts wait for the first screen (a preview that never arrives). */
const LONGEST_WAIT_MS = 5000;

const drawn = createStore(false);
let firstScreenDrawn: Promise<void> | null = null;

/**
 * Resolves once the first screen is drawn (`markFirstScreenDrawn`: the feed when its first previews
 * have arrived, the root layout at the page's `load` on any other page), or after LONGEST_WAIT_MS.
 * What the first screen does not show (the notifications and dialogs hosts, socket.io-client) waits
 * for it, so on a slow link it does not share the bandwidth with the previews, the page's largest
 * paint. Anything asked of them meanwhile is kept until they arrive.
 */
export function afterFirstScreen(): Promise<void> {
  firstScreenDrawn ??= new Promise((resolve) => {
    if (drawn.get()) {
      resolve();
      return;
    }
    const unsubscribe = drawn.subscribe(() => {
      unsubscribe();
      resolve();
    });
    setTimeout(resolve, LONGEST_WAIT_MS);
  });
  return firstScreenDrawn;
}

/** Whether the first screen has been drawn already (a later grid draws at once). */
export function isFirstScreenDrawn(): boolean {
  return drawn.get();
}

export function markFirstScreenDrawn(): void {
  drawn.set(true);
}

/** Resolves when the image has loaded or failed (at once if it already has). */
export function imageSettled(image: HTMLImageElement): Promise<void> {
  if (image.complete) return Promise.resolve();
  return new Promise((resolve) => {
    image.addEventListener('load', () => resolve(), { once: true });
    image.addEventListener('error', () => resolve(), { once: true });
  });
}
