import type { SyncRunOut } from '../../../shared/api/generated/types.gen';
import { isSyncRun, newerSyncState } from './syncRun';

function run(fields: Partial<SyncRunOut> = {}): SyncRunOut {
  return {
    run_id: 4,
    status: 'running',
    total: 10,
    done: 6,
    subscribed: 6,
    unsubscribed: 0,
    rejected: 0,
    error: null,
    started_at: '2026-11-28T07:00:00Z',
    finished_at: null,
    ...fields,
  };
}

describe('a sync run pushed or read', () => {
  it('is recognised only with every field of the wire shape', () => {
    expect(isSyncRun(run())).toBe(true);
    expect(isSyncRun(run({ status: 'failed', error: 'stopped', finished_at: '2026-11-28T07:01:00Z' }))).toBe(true);
    expect(isSyncRun({ ...run(), status: 'paused' })).toBe(false);
    expect(isSyncRun({ ...run(), done: '6' })).toBe(false);
    expect(isSyncRun({ ...run(), started_at: undefined })).toBe(false);
    expect(isSyncRun({ ...run(), error: 3 })).toBe(false);
    expect(isSyncRun(null)).toBe(false);
    expect(isSyncRun([run()])).toBe(false);
  });

  it('never moves the bar back for the same run, and follows a new run or a new status', () => {
    const shown = { data: run() };
    const older = { data: run({ done: 4 }) };
    expect(newerSyncState(shown, older)).toBe(shown);
    const ahead = { data: run({ done: 8 }) };
    expect(newerSyncState(shown, ahead)).toBe(ahead);
    const lost = { data: run({ status: 'failed', error: 'The sync stopped answering' }) };
    expect(newerSyncState(shown, lost)).toBe(lost);
    const next = { data: run({ run_id: 5, done: 0 }) };
    expect(newerSyncState(shown, next)).toBe(next);
    expect(newerSyncState(undefined, shown)).toBe(shown);
    expect(newerSyncState({ data: null }, shown)).toBe(shown);
  });
});
