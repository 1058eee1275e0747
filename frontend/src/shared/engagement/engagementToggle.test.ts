import { adjustedCount, flipped, toggle, ToggleFailure, type ToggleEffects, type ToggleState } from './engagementToggle';

function effects(overrides: Partial<ToggleEffects> = {}) {
  const shown: ToggleState[] = [];
  const calls = { login: 0, failures: [] as (string | null)[] };
  const all: ToggleEffects = {
    signedIn: true,
    send: async (wanted) => wanted,
    show: (state) => shown.push(state),
    openLogin: () => {
      calls.login += 1;
    },
    showFailure: (message) => calls.failures.push(message),
    ...overrides,
  };
  return { all, shown, calls };
}

describe('adjustedCount', () => {
  it('moves by one and never below 0', () => {
    expect(adjustedCount(4, true)).toBe(5);
    expect(adjustedCount(4, false)).toBe(3);
    expect(adjustedCount(0, false)).toBe(0);
  });
});

describe('flipped', () => {
  it('turns the toggle and its count together', () => {
    expect(flipped({ on: false, count: 9 })).toEqual({ on: true, count: 10 });
    expect(flipped({ on: true, count: 10 })).toEqual({ on: false, count: 9 });
    expect(flipped({ on: true, count: 0 })).toEqual({ on: false, count: 0 });
  });
});

describe('toggle', () => {
  it('shows the flip at once, then the exact state the server answered', async () => {
    const { all, shown, calls } = effects({ send: async () => ({ on: true, count: 42 }) });
    const final = await toggle({ on: false, count: 9 }, all);
    expect(shown).toEqual([{ on: true, count: 10 }, { on: true, count: 42 }]);
    expect(final).toEqual({ on: true, count: 42 });
    expect(calls).toEqual({ login: 0, failures: [] });
  });

  it('sends the wanted state', async () => {
    const sent: ToggleState[] = [];
    const { all } = effects({
      send: async (wanted) => {
        sent.push(wanted);
        return wanted;
      },
    });
    await toggle({ on: true, count: 1 }, all);
    expect(sent).toEqual([{ on: false, count: 0 }]);
  });

  it('opens the login dialog for signed-out visitors and sends nothing', async () => {
    const send = vi.fn(async (wanted: ToggleState) => wanted);
    const { all, shown, calls } = effects({ signedIn: false, send });
    expect(await toggle({ on: false, count: 3 }, all)).toEqual({ on: false, count: 3 });
    expect(send).not.toHaveBeenCalled();
    expect(shown).toEqual([]);
    expect(calls.login).toBe(1);
  });

  it('puts everything back and shows the server message on failure (spec §8)', async () => {
    const { all, shown, calls } = effects({
      send: async () => {
        throw new ToggleFailure(400, 'You cannot save your own media');
      },
    });
    expect(await toggle({ on: false, count: 3 }, all)).toEqual({ on: false, count: 3 });
    expect(shown).toEqual([{ on: true, count: 4 }, { on: false, count: 3 }]);
    expect(calls.failures).toEqual(['You cannot save your own media']);
  });

  it('falls back to the generic text when nothing answered', async () => {
    const { all, calls } = effects({
      send: async () => {
        throw new TypeError('Failed to fetch');
      },
    });
    await toggle({ on: false, count: 3 }, all);
    expect(calls.failures).toEqual([null]);
  });

  it('asks to sign in again when the session could not be renewed (401)', async () => {
    const { all, shown, calls } = effects({
      send: async () => {
        throw new ToggleFailure(401, 'Sign in required');
      },
    });
    await toggle({ on: true, count: 3 }, all);
    expect(shown.at(-1)).toEqual({ on: true, count: 3 });
    expect(calls).toEqual({ login: 1, failures: [] });
  });
});
