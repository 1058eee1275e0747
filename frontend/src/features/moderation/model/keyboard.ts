/** The moderation screen's keys (shown in its shortcut hint). */
export type QueueCommand = 'next' | 'previous' | 'approve' | 'reject' | 'toggle' | 'open';

export const SHORTCUTS: ReadonlyArray<{ keys: readonly string[]; hint: 'move' | 'approve' | 'reject' | 'select' | 'open' }> = [
  { keys: ['j', 'k'], hint: 'move' },
  { keys: ['a'], hint: 'approve' },
  { keys: ['r'], hint: 'reject' },
  { keys: ['x'], hint: 'select' },
  { keys: ['Enter'], hint: 'open' },
];

const KEYS: Readonly<Record<string, QueueCommand>> = {
  j: 'next',
  ArrowDown: 'next',
  k: 'previous',
  ArrowUp: 'previous',
  a: 'approve',
  r: 'reject',
  x: 'toggle',
  Enter: 'open',
};

export interface KeyLike {
  key: string;
  ctrlKey?: boolean;
  metaKey?: boolean;
  altKey?: boolean;
  shiftKey?: boolean;
  repeat?: boolean;
  defaultPrevented?: boolean;
  target: EventTarget | null;
}

const NOT_TEXT_INPUTS = new Set(['checkbox', 'radio', 'button', 'submit', 'reset', 'range', 'color', 'file', 'image']);

/** Where a key is typed, not commanded: fields, editable text, a dialog, an open menu or list box. */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof Element)) return false;
  // A checkbox or a button takes no text: keys pressed on them are still the list's.
  if (target instanceof HTMLInputElement) return !NOT_TEXT_INPUTS.has(target.type);
  if (target.closest('textarea, select, [contenteditable=""], [contenteditable="true"]')) return true;
  return target.closest('[role="dialog"], [role="menu"], [role="listbox"], [role="combobox"]') !== null;
}

/**
 * The command a key press asks for, or null: modified keys (browser shortcuts), keys typed into a
 * field and keys pressed inside a dialog are never commands. Enter on a button or link is that
 * control's own (it would click it), so Enter opens the detail only from the list itself.
 */
export function keyCommand(event: KeyLike): QueueCommand | null {
  if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return null;
  if (isTypingTarget(event.target)) return null;
  // Shift+A is not a, and Caps Lock's A is: letters count in either case, never with Shift.
  if (event.shiftKey && event.key.length === 1) return null;
  const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
  const command = KEYS[key] ?? null;
  if (command === 'open' && event.target instanceof Element && event.target.closest('button, a, [role="button"], [role="tab"]')) return null;
  if (command !== null && event.repeat && command !== 'next' && command !== 'previous') return null;
  return command;
}

/** The cursor after j / k on a list of `length` rows: it stops at both ends; no row yet: the first. */
export function moveCursor(cursor: number | null, command: 'next' | 'previous', length: number): number | null {
  if (length === 0) return null;
  if (cursor === null) return 0;
  const next = command === 'next' ? cursor + 1 : cursor - 1;
  return Math.min(length - 1, Math.max(0, next));
}

/** The cursor kept on the same item when the list changes (a push, a refetch), else near its place. */
export function followCursor(previousIds: readonly number[], cursor: number | null, ids: readonly number[]): number | null {
  if (ids.length === 0) return null;
  if (cursor === null) return null;
  const current = previousIds[cursor];
  const found = current === undefined ? -1 : ids.indexOf(current);
  if (found >= 0) return found;
  return Math.min(cursor, ids.length - 1);
}
