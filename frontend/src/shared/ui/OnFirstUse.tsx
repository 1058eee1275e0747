import { type ReactNode, useLayoutEffect, useRef, useState } from 'react';

import classes from './OnFirstUse.module.css';

/** A part of the first screen fetched when the visitor first reaches for it (frontend/README.md, "Bundle budget"). */
export interface FirstUseLoader<T> {
  /** What has arrived, or null until then. */
  readonly loaded: T | null;
  /** Starts the download (once; again after a failure) and resolves with what it brings. */
  load(): Promise<T>;
}

export function firstUseLoader<T>(importer: () => Promise<T>): FirstUseLoader<T> {
  let pending: Promise<T> | null = null;
  const loader = {
    loaded: null as T | null,
    load(): Promise<T> {
      pending ??= importer().then(
        (value) => (loader.loaded = value),
        (error: unknown) => {
          pending = null; // offline for a moment: the next hover or click tries again
          throw error;
        },
      );
      return pending;
    },
  };
  return loader;
}

/** The events on the light part that say the visitor is about to use it. */
export interface IntentHandlers {
  onPointerEnter: () => void;
  onFocus: () => void;
  onTouchStart: () => void;
  onPointerDown: () => void;
  onClick: () => void;
}

interface OnFirstUseProps<T> {
  loader: FirstUseLoader<T>;
  /** What the first screen draws: looks like the real control, with `intent` on its trigger. */
  light: (intent: IntentHandlers) => ReactNode;
  /** The real control once loaded; `openAtStart` when the light one was clicked (open it at once). */
  full: (loaded: T, openAtStart: boolean) => ReactNode;
}

/**
 * Draws a light stand-in for a control built on Mantine's floating parts (menus, popovers, the search
 * box's suggestions), and fetches the real one when the pointer comes over it, it gets the focus or
 * is touched. A click before it arrives opens it once it is there; the keyboard's focus moves to the
 * real control when it replaces the stand-in. The feed's first download carries neither the floating
 * parts (floating-ui, Popover, Menu, Combobox) nor the dropdowns' contents.
 */
export function OnFirstUse<T>({ loader, light, full }: OnFirstUseProps<T>) {
  // A function (a component) given to useState directly would be called as its initializer.
  const [loaded, setLoaded] = useState<T | null>(() => loader.loaded);
  const [openAtStart, setOpenAtStart] = useState(false);
  const host = useRef<HTMLSpanElement>(null);
  const focusAfterSwap = useRef(false);

  // In the commit that swaps them (a layout effect): a key pressed in between would find no focus.
  useLayoutEffect(() => {
    if (!loaded || !focusAfterSwap.current) return;
    focusAfterSwap.current = false;
    // The real control may have moved the focus itself (an opened menu focuses its first item).
    if (document.activeElement !== null && document.activeElement !== document.body) return;
    const control = host.current?.querySelector<HTMLElement>('input, button, a[href], [tabindex]:not([tabindex="-1"])');
    control?.focus();
    if (control instanceof HTMLInputElement) control.setSelectionRange(control.value.length, control.value.length);
  }, [loaded]);

  const start = () => {
    if (loaded) return;
    loader.load().then(
      (value) => {
        focusAfterSwap.current = host.current?.contains(document.activeElement) ?? false;
        setLoaded(() => value);
      },
      () => undefined, // the stand-in stays; the next intent tries again
    );
  };
  const openWhenLoaded = () => {
    setOpenAtStart(true);
    start();
  };
  const intent: IntentHandlers = {
    onPointerEnter: start,
    onFocus: start,
    onTouchStart: start,
    // Pressed, not only clicked: when the real control arrives between the press and the release, the
    // stand-in is gone and the browser sends no click at all, so the press alone must ask for it open.
    onPointerDown: openWhenLoaded,
    // The keyboard (Enter, Space) clicks without a press.
    onClick: openWhenLoaded,
  };

  return (
    <span ref={host} className={classes.host}>
      {loaded ? full(loaded, openAtStart) : light(intent)}
    </span>
  );
}
