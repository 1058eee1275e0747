import { useSyncExternalStore } from 'react';

type Listener = () => void;

/**
 * A value that lives outside React (a dialog's open state, the filters, a stored token) and that
 * components follow. `get` returns the same object until the value changes, as
 * useSyncExternalStore requires.
 */
export interface ReadableStore<T> {
  get(): T;
  /** Call `listener` after every change; returns the function that stops it. */
  subscribe(listener: Listener): () => void;
  /** The value inside a component, which renders again when it changes. */
  useStore(): T;
}

export interface Store<T> extends ReadableStore<T> {
  /** Replace the value and tell every subscriber (nobody is told when it is the same value). */
  set(next: T): void;
  /** Derive the next value from the current one. */
  update(change: (current: T) => T): void;
}

/** A store over a source that already tells when it changes (localStorage, another library). */
export function externalStore<T>(subscribe: (listener: Listener) => () => void, get: () => T): ReadableStore<T> {
  function useStore(): T {
    return useSyncExternalStore(subscribe, get, get);
  }
  return { get, subscribe, useStore };
}

/** A store that holds its own value, starting at `initial`. */
export function createStore<T>(initial: T): Store<T> {
  let value = initial;
  const listeners = new Set<Listener>();

  const get = () => value;
  const subscribe = (listener: Listener) => {
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  };
  const set = (next: T) => {
    if (Object.is(next, value)) return;
    value = next;
    listeners.forEach((listener) => listener());
  };
  return { ...externalStore(subscribe, get), set, update: (change) => set(change(value)) };
}
