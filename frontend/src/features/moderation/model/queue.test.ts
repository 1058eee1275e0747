import type { ModerationQueueEvent } from '../../../shared/socket/events';
import { conflictReason, eventConcerns, isQueueEvent, mergeQueueEvent, type QueuePage, summariseOutcomes, withoutItems } from './queue';

const counts = { new_virtual_tour: 2, new_user: 1 };

function page(): QueuePage {
  return {
    data: [
      { id: 10, kind: 'new_virtual_tour', payload: { guid: 'abc', title: 'Lighthouse' } },
      { id: 11, kind: 'new_user', payload: {} },
      { id: 12, kind: 'new_virtual_tour', payload: { guid: 'def', title: 'Harbour' } },
    ],
    pending: counts,
    total_items: 3,
    limit: 20,
    offset: 0,
  };
}

function event(extra: Partial<ModerationQueueEvent>): ModerationQueueEvent {
  return { kind: 'new_user', id: 11, item_id: null, action: 'approved', pending: counts, ...extra };
}

describe('mergeQueueEvent', () => {
  it('drops an item another admin approved, with its pushed counts', () => {
    const merged = mergeQueueEvent(page(), event({ action: 'approved', pending: { new_virtual_tour: 2, new_user: 0 } }));
    expect(merged.data.map((item) => item.id)).toEqual([10, 12]);
    expect(merged.total_items).toBe(2);
    expect(merged.pending).toEqual({ new_virtual_tour: 2, new_user: 0 });
  });

  it('finds a tour item by the guid its domain pushes', () => {
    for (const action of ['rejected', 'removed', 'deleted'] as const) {
      const merged = mergeQueueEvent(page(), event({ kind: 'new_virtual_tour', id: 'def', action }));
      expect(merged.data.map((item) => item.id)).toEqual([10, 11]);
    }
  });

  it('finds an item by the item_id a push carries, whatever its subject', () => {
    const merged = mergeQueueEvent(page(), event({ kind: 'new_virtual_tour', id: 'some-guid', item_id: 12, action: 'approved' }));
    expect(merged.data.map((item) => item.id)).toEqual([10, 11]);
    // item_id names the item: a subject that would match another row does not.
    const exact = mergeQueueEvent(page(), event({ kind: 'new_virtual_tour', id: 'abc', item_id: 12, action: 'approved' }));
    expect(exact.data.map((item) => item.id)).toEqual([10, 11]);
  });

  it('does not confuse an item of another kind with the same id', () => {
    const merged = mergeQueueEvent(page(), event({ kind: 'new_provider', id: 11 }));
    expect(merged.data).toHaveLength(3);
  });

  it('keeps the list for an added item (refetched) but takes the new counts', () => {
    const before = page();
    const merged = mergeQueueEvent(before, event({ action: 'added', id: 99, pending: { new_virtual_tour: 3, new_user: 1 } }));
    expect(merged.data).toBe(before.data);
    expect(merged.pending).toEqual({ new_virtual_tour: 3, new_user: 1 });
  });

  it('answers the same object when nothing changes, so nothing renders again', () => {
    const before = page();
    expect(mergeQueueEvent(before, event({ action: 'added', id: 99 }))).toBe(before);
    expect(mergeQueueEvent(before, event({ action: 'approved', id: 404 }))).toBe(before);
  });
});

describe('withoutItems', () => {
  it('removes the decided items and takes the answer counts', () => {
    const next = withoutItems(page(), new Set([10, 11]), { new_virtual_tour: 1, new_user: 0 });
    expect(next.data.map((item) => item.id)).toEqual([12]);
    expect(next.total_items).toBe(1);
    expect(next.pending).toEqual({ new_virtual_tour: 1, new_user: 0 });
  });

  it('keeps the page when none of the items is on it', () => {
    const before = page();
    expect(withoutItems(before, new Set([77]))).toBe(before);
  });
});

describe('summariseOutcomes', () => {
  it('counts each outcome and lists every item that no longer waits', () => {
    const summary = summariseOutcomes([
      { id: 1, status: 'approved', message: '' },
      { id: 2, status: 'conflict', message: 'This item has already been rejected' },
      { id: 3, status: 'not_found', message: 'Approval item not found' },
      { id: 4, status: 'rejected', message: '' },
      { id: 5, status: 'conflict', message: 'This item has already been withdrawn' },
    ]);
    expect(summary).toMatchObject({ done: 2, conflicts: 2, missing: 1 });
    // The withdrawn one still waits (a rejection clears it): it stays.
    expect([...summary.left]).toEqual([1, 2, 3, 4]);
  });
});

describe('isQueueEvent / eventConcerns', () => {
  it('accepts only the pushed shape', () => {
    expect(isQueueEvent(event({}))).toBe(true);
    expect(isQueueEvent({ kind: 'new_user', id: 1, action: 'added' })).toBe(false);
    expect(isQueueEvent(null)).toBe(false);
    expect(isQueueEvent({ kind: 'new_user', id: [1], action: 'added', pending: {} })).toBe(false);
  });

  it('matches a category request by its tour guid', () => {
    expect(eventConcerns({ id: 5, kind: 'category_request', payload: { tour_guid: 'g' } }, { kind: 'category_request', id: 'g' })).toBe(true);
    expect(eventConcerns({ id: 5, kind: 'category_request', payload: { tour_guid: 'g' } }, { kind: 'category_request', id: 5 })).toBe(true);
    expect(eventConcerns({ id: 5, kind: 'category_request', payload: {} }, { kind: 'category_request', id: 6 })).toBe(false);
  });
});

describe('conflictReason', () => {
  const conflict = (message: string) => ({ id: 1, status: 'conflict' as const, message });

  it('names the cases the screen explains', () => {
    expect(conflictReason(conflict('This item has already been approved'))).toBe('decided');
    expect(conflictReason(conflict('This item has already been rejected'))).toBe('decided');
    expect(conflictReason(conflict('This item has already been withdrawn'))).toBe('withdrawn');
    expect(conflictReason(conflict('Items of this kind cannot be decided yet'))).toBe('notDecidable');
    expect(conflictReason({ id: 1, status: 'not_found', message: 'Approval item not found' })).toBe('gone');
  });

  it('leaves any other message to the server and decisions taken here alone', () => {
    expect(conflictReason(conflict('You cannot decide on your own account'))).toBeNull();
    expect(conflictReason({ id: 1, status: 'approved', message: '' })).toBeNull();
  });
});
