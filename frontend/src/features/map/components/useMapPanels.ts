import { useId, useRef, useState } from 'react';

import type { SpotRequest } from './MapView';

/**
 * The panels beside a map (spec §2 list view): the list of tours in view, opened by its toggle, and a
 * spot's list, opened from the map. They share one place on screen, so one shows at a time; closing
 * the list gives the focus back to its toggle.
 */
export function useMapPanels() {
  const [spot, setSpot] = useState<SpotRequest | null>(null);
  const [listOpen, setListOpen] = useState(false);
  const listId = useId();
  const listToggle = useRef<HTMLButtonElement>(null);
  return {
    spot,
    listOpen,
    listId,
    listToggle,
    showSpot: (request: SpotRequest) => {
      setListOpen(false);
      setSpot(request);
    },
    closeSpot: () => setSpot(null),
    toggleList: () => {
      setSpot(null);
      setListOpen((open) => !open);
    },
    closeList: () => {
      setListOpen(false);
      listToggle.current?.focus();
    },
  };
}

export type MapPanels = ReturnType<typeof useMapPanels>;
