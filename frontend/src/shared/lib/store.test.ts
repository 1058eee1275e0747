import { act, renderHook } from '@testing-library/react';

import { createStore, externalStore } from './store';

describe('createStore', () => {
  it('holds its value and tells subscribers of each change until they leave', () => {
    const store = createStore<{ count: number }>({ count: 0 });
    const heard: number[] = [];
    const leave = store.subscribe(() => heard.push(store.get().count));

    store.set({ count: 1 });
    store.update((current) => ({ count: current.count + 1 }));
    leave();
    store.set({ count: 5 });

    expect(heard).toEqual([1, 2]);
    expect(store.get()).toEqual({ count: 5 });
  });

  it('tells nobody when the same value is set again', () => {
    const value = { opened: true };
    const store = createStore(value);
    const listener = vi.fn();
    store.subscribe(listener);

    store.set(value);
    store.update((current) => current);

    expect(listener).not.toHaveBeenCalled();
  });

  it('renders components again when the value changes, and stops following on unmount', () => {
    const store = createStore('closed');
    const { result, unmount } = renderHook(() => store.useStore());
    expect(result.current).toBe('closed');

    act(() => store.set('open'));
    expect(result.current).toBe('open');

    const listener = vi.fn();
    store.subscribe(listener);
    unmount();
    store.set('closed');
    expect(listener).toHaveBeenCalledTimes(1); // only the test's own listener is left
  });
});

describe('externalStore', () => {
  it('follows a source that announces its own changes', () => {
    let value = 1;
    const listeners = new Set<() => void>();
    const store = externalStore(
      (listener) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
      () => value,
    );
    const { result, unmount } = renderHook(() => store.useStore());
    expect(result.current).toBe(1);

    act(() => {
      value = 2;
      listeners.forEach((listener) => listener());
    });
    expect(result.current).toBe(2);

    unmount();
    expect(listeners.size).toBe(0);
  });
});
