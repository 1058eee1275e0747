import { cascadeSteps } from './cascade';
import { MESSAGE_TEXT_MAX, transferTours, validateMessage, validateRank, validateTransfer } from './forms';

describe('the transfer form', () => {
  const base = { sourceId: 4, target: { userid: 9 }, mode: 'all' as const, chosen: [], tourCount: 3 };

  it('accepts another account and every tour', () => {
    expect(validateTransfer(base)).toEqual({});
    expect(transferTours(base)).toBeNull();
  });

  it('wants a receiving account other than the giving one', () => {
    expect(validateTransfer({ ...base, target: null }).target).toBe('required');
    expect(validateTransfer({ ...base, target: { userid: 4 } }).target).toBe('same');
  });

  it('wants at least one chosen tour, and tours to move at all', () => {
    expect(validateTransfer({ ...base, mode: 'chosen' }).tours).toBe('none');
    expect(validateTransfer({ ...base, mode: 'chosen', chosen: ['g1'] })).toEqual({});
    expect(transferTours({ mode: 'chosen', chosen: ['g1', 'g2'] })).toEqual(['g1', 'g2']);
    expect(validateTransfer({ ...base, tourCount: 0 }).tours).toBe('empty');
  });
});

describe('the message form', () => {
  it('wants a title and a text once trimmed, within the server limits', () => {
    expect(validateMessage('  ', 'Hello')).toEqual({ title: 'required' });
    expect(validateMessage('Hi', '   ')).toEqual({ message: 'required' });
    expect(validateMessage('Hi', 'x'.repeat(MESSAGE_TEXT_MAX + 1))).toEqual({ message: 'tooLong' });
    expect(validateMessage('Hi', ` ${'x'.repeat(MESSAGE_TEXT_MAX)} `)).toEqual({});
  });
});

describe('the rank form', () => {
  const options = { adding: true, creators: false, limit: 1_000_000 };
  const values = { sourceId: '1', target: 'abc', value: '2.5', position: '' };

  it('accepts a source, a target and a finite value', () => {
    expect(validateRank(values, options)).toEqual({});
  });

  it('names what is wrong', () => {
    expect(validateRank({ sourceId: null, target: ' ', value: '', position: '0' }, options)).toEqual({
      sourceId: 'required',
      target: 'required',
      value: 'required',
      position: 'position',
    });
    expect(validateRank({ ...values, value: 'ten' }, options).value).toBe('number');
    expect(validateRank({ ...values, value: '-1000001' }, options).value).toBe('range');
    expect(validateRank({ ...values, target: '12a' }, { ...options, creators: true }).target).toBe('creatorId');
  });

  it('asks only for the value and place when editing', () => {
    expect(validateRank({ sourceId: null, target: '', value: '3', position: '2' }, { ...options, adding: false })).toEqual({});
  });
});

describe('the account cascade (spec §4)', () => {
  it('drafts the account, its sessions, creator profile, custom hosts and every tour', () => {
    expect(cascadeSteps({ creatorId: 5, tours_count: 12 }, false)).toEqual([
      { key: 'account' },
      { key: 'signedOut' },
      { key: 'creator' },
      { key: 'hosts' },
      { key: 'tours', count: 12 },
    ]);
  });

  it('leaves out the creator profile an account does not have, and puts the tours into drafts on reactivation', () => {
    expect(cascadeSteps({ creatorId: null, tours_count: 2 }, true)).toEqual([{ key: 'account' }, { key: 'hosts' }, { key: 'toursToDrafts', count: 2 }]);
  });
});
