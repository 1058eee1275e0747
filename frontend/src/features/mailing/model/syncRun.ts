import type { SyncRunOut, SyncStateOut } from '../../../shared/api/generated/types.gen';

const STATUSES: readonly string[] = ['running', 'completed', 'failed'] satisfies SyncRunOut['status'][];
const COUNTS = ['run_id', 'total', 'done', 'subscribed', 'unsubscribed', 'rejected'] as const;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A pushed `mailing:sync` payload: a run as GET /v2/mailing-list/members-sync answers it. */
export function isSyncRun(value: unknown): value is SyncRunOut {
  return (
    isRecord(value) &&
    typeof value.status === 'string' &&
    STATUSES.includes(value.status) &&
    COUNTS.every((name) => typeof value[name] === 'number') &&
    typeof value.started_at === 'string' &&
    (value.finished_at === null || typeof value.finished_at === 'string') &&
    (value.error === null || typeof value.error === 'string')
  );
}

/**
 * Which of two answers about the latest run the page keeps. A run's `done` only grows, so an answer
 * that says less about the same run left the server before the one on screen (a read that was on its
 * way while a push arrived): the screen keeps the newer figure and the bar never steps back. Anything
 * else (another run, the same figure with a new status) replaces it.
 */
export function newerSyncState(current: unknown, incoming: unknown): unknown {
  if (!isRecord(current) || !isRecord(incoming)) return incoming;
  const shown = (current as Partial<SyncStateOut>).data;
  const next = (incoming as Partial<SyncStateOut>).data;
  if (shown && next && shown.run_id === next.run_id && next.done < shown.done) return current;
  return incoming;
}
