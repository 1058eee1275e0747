import { type RefObject, useEffect } from 'react';

import { getRealtimeConnection, type RealtimeConnection } from './realtimeConnection';

/** Cards this close to the viewport count as on screen: their counters are live before they scroll in. */
export const VISIBLE_MARGIN = '200px';
/**
 * A card joins its room once it has stayed on screen this long: scrolling fast past hundreds of cards
 * sends no join or leave for the ones only flying by.
 */
export const JOIN_AFTER_MS = 300;

type VisibilityListener = (visible: boolean) => void;

/** One IntersectionObserver for every card of the tab, instead of one per card. */
class VisibilityWatcher {
  private observer: IntersectionObserver | null = null;
  private readonly listeners = new Map<Element, VisibilityListener>();

  watch(element: Element, listener: VisibilityListener): () => void {
    if (typeof IntersectionObserver === 'undefined') {
      // Nothing tells what is on screen: everything mounted counts (the connection caps the rooms).
      listener(true);
      return () => undefined;
    }
    this.observer ??= new IntersectionObserver((entries) => entries.forEach((entry) => this.listeners.get(entry.target)?.(entry.isIntersecting)), {
      rootMargin: VISIBLE_MARGIN,
    });
    this.listeners.set(element, listener);
    this.observer.observe(element);
    return () => {
      this.listeners.delete(element);
      this.observer?.unobserve(element);
    };
  }
}

let tabWatcher: VisibilityWatcher | null = null;

/**
 * Be in `room` while the element is on screen (a card in a grid): pushed counters reach the cards the
 * visitor sees, and a long grid never holds more rooms than the screen shows.
 */
export function useRoomWhileVisible(
  room: string | null | undefined,
  element: RefObject<Element | null>,
  connection: RealtimeConnection = getRealtimeConnection(),
): void {
  useEffect(() => {
    const target = element.current;
    if (!room || !target) return undefined;
    let release: (() => void) | null = null;
    let pending: ReturnType<typeof setTimeout> | null = null;
    const cancelPending = () => {
      if (pending !== null) clearTimeout(pending);
      pending = null;
    };
    tabWatcher ??= new VisibilityWatcher();
    const stopWatching = tabWatcher.watch(target, (visible) => {
      if (visible) {
        if (release || pending !== null) return;
        pending = setTimeout(() => {
          pending = null;
          release = connection.join(room);
        }, JOIN_AFTER_MS);
        return;
      }
      cancelPending();
      release?.();
      release = null;
    });
    return () => {
      stopWatching();
      cancelPending();
      release?.();
    };
  }, [room, element, connection]);
}
