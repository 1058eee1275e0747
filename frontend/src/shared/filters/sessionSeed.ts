const SESSION_SEED_KEY = 'randomSeed';

let fallbackSeed: string | null = null;

function newSeed(): string {
  return Math.random().toString(36).slice(2, 12);
}

/**
 * The Random order's seed (spec §2 sorting Random): one per browser session, sent with every page,
 * so the server deals the same shuffled deck page after page and no card repeats.
 */
export function sessionSeed(): string {
  try {
    const stored = window.sessionStorage.getItem(SESSION_SEED_KEY);
    if (stored) return stored;
    const seed = newSeed();
    window.sessionStorage.setItem(SESSION_SEED_KEY, seed);
    return seed;
  } catch {
    // No session storage (private mode): one seed for as long as the page lives.
    fallbackSeed ??= newSeed();
    return fallbackSeed;
  }
}
