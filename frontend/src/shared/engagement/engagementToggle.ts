/**
 * The save and follow toggles of the cards (spec §4 "Like and save", "Follow"): the button and its
 * count flip at once (by one, never below 0), the server's answer then sets the exact count, and a
 * failure puts everything back. Signed-out visitors get the login dialog instead (spec §6).
 */
export interface ToggleState {
  on: boolean;
  count: number;
}

/** Why a toggle did not go through: the server's status and message, when it answered. */
export class ToggleFailure extends Error {
  constructor(
    readonly status: number | null,
    readonly serverMessage: string | null,
  ) {
    super(serverMessage ?? `toggle failed (${status ?? 'no answer'})`);
    this.name = 'ToggleFailure';
  }
}

export function adjustedCount(count: number, increase: boolean): number {
  return Math.max(0, count + (increase ? 1 : -1));
}

/** The state the visitor sees right after clicking. */
export function flipped(state: ToggleState): ToggleState {
  return { on: !state.on, count: adjustedCount(state.count, !state.on) };
}

export interface ToggleEffects {
  signedIn: boolean;
  /** Sends the wanted state; resolves with the server's state, rejects with a ToggleFailure. */
  send: (wanted: ToggleState) => Promise<ToggleState>;
  /** Shows a state on the card. */
  show: (state: ToggleState) => void;
  openLogin: () => void;
  /** Spec §8: the dialog with the server's message (null: the generic text). */
  showFailure: (message: string | null) => void;
}

/**
 * One click. An expired session that could not be renewed (401) asks to sign in again rather than
 * showing an error; any other failure shows the server's message.
 */
export async function toggle(current: ToggleState, effects: ToggleEffects): Promise<ToggleState> {
  if (!effects.signedIn) {
    effects.openLogin();
    return current;
  }
  const wanted = flipped(current);
  effects.show(wanted);
  try {
    const answered = await effects.send(wanted);
    effects.show(answered);
    return answered;
  } catch (error) {
    effects.show(current);
    const failure = error instanceof ToggleFailure ? error : new ToggleFailure(null, null);
    if (failure.status === 401) effects.openLogin();
    else effects.showFailure(failure.serverMessage);
    return current;
  }
}
