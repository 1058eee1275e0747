import type { ModerationQueueEvent } from '../../../shared/socket/events';

/** What a row needs of an item of GET /v2/pending/approval-items (the generated type has more). */
export interface QueueItem {
  id: number;
  kind: string;
  payload: { [key: string]: unknown };
}

export interface QueuePage<T extends QueueItem = QueueItem> {
  data: T[];
  pending: { [kind: string]: number };
  total_items: number;
  limit: number;
  offset: number;
}

/** Actions of a push after which the item no longer waits. */
const LEAVING = new Set<ModerationQueueEvent['action']>(['removed', 'approved', 'rejected', 'deleted']);

/**
 * Whether a push is about this item: by the approval item's id the push carries (`item_id`), else by
 * the subject as its domain names it (app/moderation/service.py announce_queue_change): the item's id,
 * or for tours the tour's guid, which tour items keep in their payload.
 */
export function eventConcerns(item: QueueItem, event: Pick<ModerationQueueEvent, 'kind' | 'id'> & { item_id?: number | null }): boolean {
  if (item.kind !== event.kind) return false;
  if (typeof event.item_id === 'number') return item.id === event.item_id;
  if (typeof event.id === 'number') return item.id === event.id;
  return item.payload.guid === event.id || item.payload.tour_guid === event.id || String(item.id) === event.id;
}

/**
 * A loaded page with a push merged in, at once, before the page is asked for again: an item decided
 * or withdrawn leaves the list (and the total), and the counts per kind are the pushed ones. An added
 * item is not invented here: the page is refetched for it (useQueueLive). The same object when
 * nothing changed, so nothing renders again.
 */
export function mergeQueueEvent<T extends QueueItem>(page: QueuePage<T>, event: ModerationQueueEvent): QueuePage<T> {
  let data = page.data;
  if (LEAVING.has(event.action)) {
    const kept = page.data.filter((item) => !eventConcerns(item, event));
    if (kept.length !== page.data.length) data = kept;
  }
  const removed = page.data.length - data.length;
  const pendingChanged = !sameCounts(page.pending, event.pending);
  if (removed === 0 && !pendingChanged) return page;
  return {
    ...page,
    data,
    pending: pendingChanged ? event.pending : page.pending,
    total_items: Math.max(0, page.total_items - removed),
  };
}

/** Items decided by this screen leave its list at once (the answer of the PUT, before any push). */
export function withoutItems<T extends QueueItem>(page: QueuePage<T>, ids: ReadonlySet<number>, pending?: QueuePage['pending']): QueuePage<T> {
  const data = page.data.filter((item) => !ids.has(item.id));
  if (data.length === page.data.length && (pending === undefined || sameCounts(page.pending, pending))) return page;
  return { ...page, data, pending: pending ?? page.pending, total_items: Math.max(0, page.total_items - (page.data.length - data.length)) };
}

function sameCounts(a: Readonly<Record<string, number>>, b: Readonly<Record<string, number>>): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const key of keys) if ((a[key] ?? 0) !== (b[key] ?? 0)) return false;
  return true;
}

export function isQueueEvent(data: unknown): data is ModerationQueueEvent {
  if (typeof data !== 'object' || data === null) return false;
  const event = data as Record<string, unknown>;
  return (
    typeof event.kind === 'string' &&
    (typeof event.id === 'number' || typeof event.id === 'string') &&
    (event.item_id === undefined || event.item_id === null || typeof event.item_id === 'number') &&
    typeof event.action === 'string' &&
    typeof event.pending === 'object' &&
    event.pending !== null
  );
}

/** Outcomes of a decision on several items (PUT /v2/pending/approval-items), one per item. */
export type DecisionStatus = 'approved' | 'rejected' | 'conflict' | 'not_found';

export interface DecisionOutcome {
  id: number;
  status: DecisionStatus;
  message: string;
}

export interface OutcomeSummary {
  done: number;
  conflicts: number;
  missing: number;
  /** Items that no longer wait: decided now, decided by another admin, or gone. */
  left: Set<number>;
}

export function summariseOutcomes(outcomes: readonly DecisionOutcome[]): OutcomeSummary {
  const summary: OutcomeSummary = { done: 0, conflicts: 0, missing: 0, left: new Set() };
  for (const outcome of outcomes) {
    if (outcome.status === 'approved' || outcome.status === 'rejected') summary.done += 1;
    else if (outcome.status === 'conflict') summary.conflicts += 1;
    else summary.missing += 1;
    // A withdrawn item, or one of a kind nobody decides yet, still waits: it stays in the list.
    const reason = conflictReason(outcome);
    if (outcome.status !== 'conflict' || reason === 'decided') summary.left.add(outcome.id);
  }
  return summary;
}

/**
 * Why an item could not be decided, as a text key: the server's messages (app/moderation/decisions.py)
 * of the cases the screen explains in the reader's language; null: show the server's own message.
 */
export type ConflictReason = 'decided' | 'withdrawn' | 'notDecidable' | 'gone';

export function conflictReason(outcome: DecisionOutcome): ConflictReason | null {
  if (outcome.status === 'not_found') return 'gone';
  if (outcome.status !== 'conflict') return null;
  if (/already been (approved|rejected)/i.test(outcome.message)) return 'decided';
  if (/already been withdrawn/i.test(outcome.message)) return 'withdrawn';
  if (/cannot be decided yet/i.test(outcome.message)) return 'notDecidable';
  // A conflict without a message (none is expected) is still a decision somebody else took.
  return outcome.message.trim() === '' ? 'decided' : null;
}
