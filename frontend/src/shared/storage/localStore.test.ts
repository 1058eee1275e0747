import { act, renderHook } from '@testing-library/react';

import { parseJson, STORAGE_KEYS, storedValue, writeItem, writeJson } from './localStore';

const isNumberList = (value: unknown): value is number[] => Array.isArray(value) && value.every((item) => typeof item === 'number');

describe('storedValue', () => {
  const hosts = () => storedValue(STORAGE_KEYS.providerAttention, (raw) => parseJson(raw, isNumberList) ?? []);

  it('parses again only when the stored text changes, so reads between changes are the same object', () => {
    const store = hosts();
    const first = store.get();
    expect(first).toEqual([]);
    expect(store.get()).toBe(first);

    writeJson(STORAGE_KEYS.providerAttention, [4]);
    const second = store.get();
    expect(second).toEqual([4]);
    expect(store.get()).toBe(second);
  });

  it('renders again on writes from this tab and from other tabs', () => {
    const store = hosts();
    const { result } = renderHook(() => store.useStore());

    act(() => writeJson(STORAGE_KEYS.providerAttention, [1, 2]));
    expect(result.current).toEqual([1, 2]);

    act(() => {
      window.localStorage.setItem(STORAGE_KEYS.providerAttention, '[3]');
      window.dispatchEvent(new StorageEvent('storage', { key: STORAGE_KEYS.providerAttention }));
    });
    expect(result.current).toEqual([3]);
  });

  it('reads what is not valid JSON of the right shape as nothing stored', () => {
    const store = hosts();
    writeItem(STORAGE_KEYS.providerAttention, '{broken');
    expect(store.get()).toEqual([]);
    writeItem(STORAGE_KEYS.providerAttention, '["a"]');
    expect(store.get()).toEqual([]);
  });
});
