/**
 * react-query keys of tour data, in one place: the tour page, the media form, the manage-media
 * dashboard and the realtime client (which writes live counters into the player query) must agree.
 */
export const tourQueryKeys = {
  /** Everything about tours: invalidated after a tour is added, edited, moved or deleted. */
  all: ['virtualtours'] as const,
  detail: (guid: string) => ['virtualtours', 'detail', guid] as const,
  /** GET /v2/virtualtours/player/{tour_id}: counters and the visitor's like/save (spec §3 Player parameters). */
  player: (guid: string) => ['virtualtours', 'player', guid] as const,
  userTours: (userId: number) => ['virtualtours', 'user', userId] as const,
};

/** The query the realtime client updates when a tour's counters change (TOUR_COUNTERS event). */
export function tourCountersKey(guid: string): readonly ['virtualtours', 'player', string] {
  return tourQueryKeys.player(guid);
}
