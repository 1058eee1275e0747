import { useSyncExternalStore } from 'react';

import type { Bounds } from '../filters/filterState';

/** Spec §9: a map centred on coordinates opens at zoom 14. */
export const COORDINATES_ZOOM = 14;

/** Where the map should go next: an area to fit, or a point to centre at a zoom. */
export type MapTarget = { kind: 'bounds'; bounds: Bounds; id: number } | { kind: 'point'; center: [number, number]; zoom: number; id: number };

type NewTarget = { kind: 'bounds'; bounds: Bounds } | { kind: 'point'; center: [number, number]; zoom?: number };

let pending: MapTarget | null = null;
let nextId = 1;
const listeners = new Set<() => void>();

/**
 * Ask the map to move (a place chosen in search, spec §2). The map may not be open yet: the target
 * waits until the map page takes it.
 */
export function requestMapTarget(target: NewTarget): void {
  const id = nextId++;
  pending = target.kind === 'bounds' ? { ...target, id } : { kind: 'point', center: target.center, zoom: target.zoom ?? COORDINATES_ZOOM, id };
  listeners.forEach((listener) => listener());
}

/** The map has moved there: the request is done. */
export function takeMapTarget(id: number): void {
  if (pending?.id !== id) return;
  pending = null;
  listeners.forEach((listener) => listener());
}

export function peekMapTarget(): MapTarget | null {
  return pending;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useMapTarget(): MapTarget | null {
  return useSyncExternalStore(subscribe, peekMapTarget, peekMapTarget);
}
