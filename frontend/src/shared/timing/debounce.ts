export interface Debounced<Args extends unknown[]> {
  (...args: Args): void;
  /** Forget the pending call. */
  cancel: () => void;
  /** Make the pending call now, if there is one. */
  flush: () => void;
  pending: () => boolean;
}

/** Call `fn` once calls have stopped for `waitMs`, with the arguments of the last call. */
export function debounce<Args extends unknown[]>(fn: (...args: Args) => void, waitMs: number): Debounced<Args> {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let lastArgs: Args | null = null;

  const run = () => {
    timer = null;
    const args = lastArgs;
    lastArgs = null;
    if (args) fn(...args);
  };

  const debounced = (...args: Args) => {
    lastArgs = args;
    if (timer !== null) clearTimeout(timer);
    timer = setTimeout(run, waitMs);
  };
  debounced.cancel = () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    lastArgs = null;
  };
  debounced.flush = () => {
    if (timer === null) return;
    clearTimeout(timer);
    run();
  };
  debounced.pending = () => timer !== null;
  return debounced;
}
