import { act, renderHook } from '@testing-library/react';

import { debounce } from './debounce';
import { useDebouncedValue } from './useDebouncedValue';

describe('debounce', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('calls once, with the last arguments, after calls stop for the wait', () => {
    const fn = vi.fn();
    const debounced = debounce(fn, 1200);
    debounced('a');
    vi.advanceTimersByTime(1000);
    debounced('ab');
    vi.advanceTimersByTime(1199);
    expect(fn).not.toHaveBeenCalled();
    expect(debounced.pending()).toBe(true);
    vi.advanceTimersByTime(1);
    expect(fn).toHaveBeenCalledTimes(1);
    expect(fn).toHaveBeenCalledWith('ab');
    expect(debounced.pending()).toBe(false);
  });

  it('can be cancelled or flushed', () => {
    const fn = vi.fn();
    const debounced = debounce(fn, 300);
    debounced(1);
    debounced.cancel();
    vi.advanceTimersByTime(1000);
    expect(fn).not.toHaveBeenCalled();
    debounced(2);
    debounced.flush();
    expect(fn).toHaveBeenCalledWith(2);
    debounced.flush();
    expect(fn).toHaveBeenCalledTimes(1);
  });
});

describe('useDebouncedValue', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('follows the value once it has been still for the wait, and says when it is waiting', () => {
    const { result, rerender } = renderHook(({ value }) => useDebouncedValue(value, 1200), { initialProps: { value: '' } });
    rerender({ value: 'pa' });
    expect(result.current).toMatchObject({ debounced: '', waiting: true });
    act(() => vi.advanceTimersByTime(600));
    rerender({ value: 'par' });
    act(() => vi.advanceTimersByTime(1199));
    expect(result.current.debounced).toBe('');
    act(() => vi.advanceTimersByTime(1));
    expect(result.current).toMatchObject({ debounced: 'par', waiting: false });
  });

  it('skips the wait when asked (Enter in the search box)', () => {
    const { result, rerender } = renderHook(({ value }) => useDebouncedValue(value, 1200), { initialProps: { value: '' } });
    rerender({ value: 'rome' });
    act(() => result.current.flushTo('rome'));
    expect(result.current).toMatchObject({ debounced: 'rome', waiting: false });
  });
});
