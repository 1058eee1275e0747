/** Spec §3 "Player parameters": the tour's counters and the visitor's own like and save. */
export interface PlayerCounters {
  views: number;
  likes: number;
  shared: number;
  saves: number;
  user_like: number;
  user_save: number;
}

export type Engagement = 'like' | 'save';

function adjusted(count: number, increase: boolean): number {
  return Math.max(0, count + (increase ? 1 : -1));
}

/**
 * Spec §4 "Like and save": toggle user_like / user_save between 0 and 1 and move the counter by one,
 * never below 0. Used optimistically before the server answers, and undone when it refuses.
 */
export function toggleEngagement(counters: PlayerCounters, kind: Engagement): PlayerCounters {
  if (kind === 'like') {
    const liking = counters.user_like !== 1;
    return { ...counters, user_like: liking ? 1 : 0, likes: adjusted(counters.likes, liking) };
  }
  const saving = counters.user_save !== 1;
  return { ...counters, user_save: saving ? 1 : 0, saves: adjusted(counters.saves, saving) };
}

/** A share counted once the share screen opens. */
export function countShare(counters: PlayerCounters): PlayerCounters {
  return { ...counters, shared: counters.shared + 1 };
}

/**
 * Live counters pushed by the server (TOUR_COUNTERS) replace the totals but never the visitor's own
 * flags, which the push does not carry.
 */
export function withLiveCounters(counters: PlayerCounters, live: Partial<Pick<PlayerCounters, 'views' | 'likes' | 'shared' | 'saves'>>): PlayerCounters {
  return {
    ...counters,
    views: live.views ?? counters.views,
    likes: live.likes ?? counters.likes,
    shared: live.shared ?? counters.shared,
    saves: live.saves ?? counters.saves,
  };
}
