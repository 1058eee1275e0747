import type { Bounds } from '../filters/filterState';
import { createStore } from '../lib/store';

/** Spec §9: a map centred on coordinates opens at zoom 14. */
export const COORDINATES_ZOOM = 14;

/** Where the map should go next: an area to fit, or a point to centre at a zoom. */
export type MapTarget = { kind: 'bounds'; bounds: Bounds; id: number } | { kind: 'point'; center: [number, number]; zoom: number; id: number };

type NewTarget = { kind: 'bounds'; bounds: Bounds } | { kind: 'point'; center: [number, number]; zoom?: number };

const pending = createStore<MapTarget | null>(null);
let nextId = 1;

/**
 * Ask the map to move (a place chosen in search, spec §2). The map may not be open yet: the target
 * waits until the map page takes it.
 */
export function requestMapTarget(target: NewTarget): void {
  const id = nextId++;
  pending.set(target.kind === 'bounds' ? { ...target, id } : { kind: 'point', center: target.center, zoom: target.zoom ?? COORDINATES_ZOOM, id });
}

/** The map has moved there: the request is done. */
export function takeMapTarget(id: number): void {
  if (pending.get()?.id === id) pending.set(null);
}

export function peekMapTarget(): MapTarget | null {
  return pending.get();
}

export function useMapTarget(): MapTarget | null {
  return pending.useStore();
}
