import { countShare, type PlayerCounters, toggleEngagement, withLiveCounters } from './playerCounters';

const START: PlayerCounters = { views: 10, likes: 3, shared: 1, saves: 0, user_like: 0, user_save: 0 };

describe('toggleEngagement (spec §4 Like and save)', () => {
  it('likes and unlikes, moving the counter by one', () => {
    const liked = toggleEngagement(START, 'like');
    expect(liked).toEqual({ ...START, likes: 4, user_like: 1 });
    expect(toggleEngagement(liked, 'like')).toEqual(START);
  });

  it('saves and unsaves', () => {
    const saved = toggleEngagement(START, 'save');
    expect(saved).toEqual({ ...START, saves: 1, user_save: 1 });
    expect(toggleEngagement(saved, 'save')).toEqual(START);
  });

  it('never drops a counter below 0', () => {
    expect(toggleEngagement({ ...START, saves: 0, user_save: 1 }, 'save')).toMatchObject({ saves: 0, user_save: 0 });
    expect(toggleEngagement({ ...START, likes: 0, user_like: 1 }, 'like')).toMatchObject({ likes: 0, user_like: 0 });
  });

  it('leaves the other counters alone', () => {
    expect(toggleEngagement(START, 'like')).toMatchObject({ views: 10, shared: 1, saves: 0, user_save: 0 });
  });
});

describe('shares and live counters', () => {
  it('counts a share', () => {
    expect(countShare(START).shared).toBe(2);
  });

  it('takes pushed totals and keeps the visitor flags', () => {
    const mine = { ...START, user_like: 1 };
    expect(withLiveCounters(mine, { likes: 9, views: 11 })).toEqual({ ...mine, likes: 9, views: 11 });
  });
});
