import { useEffect, useState } from 'react';

/**
 * `value` once it has stopped changing for `waitMs`, and whether a newer value is still waiting
 * (the search box shows a spinner meanwhile). `flushTo` skips the wait (Enter in the search box).
 */
export function useDebouncedValue<T>(value: T, waitMs: number): { debounced: T; waiting: boolean; flushTo: (next: T) => void } {
  const [debounced, setDebounced] = useState(value);

  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), waitMs);
    return () => clearTimeout(timer);
  }, [value, waitMs]);

  return { debounced, waiting: !Object.is(debounced, value), flushTo: setDebounced };
}
