import { followCursor, isTypingTarget, keyCommand, type KeyLike, moveCursor } from './keyboard';

function on(target: Element | null, key: string, extra: Partial<KeyLike> = {}): KeyLike {
  return { key, target, ...extra };
}

function element(html: string, selector: string): Element {
  document.body.innerHTML = html;
  const found = document.body.querySelector(selector);
  if (!found) throw new Error(`no ${selector}`);
  return found;
}

describe('keyCommand', () => {
  afterEach(() => {
    document.body.innerHTML = '';
  });

  it('maps the screen keys on the page body', () => {
    expect(keyCommand(on(document.body, 'j'))).toBe('next');
    expect(keyCommand(on(document.body, 'k'))).toBe('previous');
    expect(keyCommand(on(document.body, 'ArrowDown'))).toBe('next');
    expect(keyCommand(on(document.body, 'ArrowUp'))).toBe('previous');
    expect(keyCommand(on(document.body, 'a'))).toBe('approve');
    expect(keyCommand(on(document.body, 'r'))).toBe('reject');
    expect(keyCommand(on(document.body, 'x'))).toBe('toggle');
    expect(keyCommand(on(document.body, 'Enter'))).toBe('open');
    expect(keyCommand(on(document.body, 'q'))).toBeNull();
  });

  it('takes a capital letter from Caps Lock but not Shift or a modifier', () => {
    expect(keyCommand(on(document.body, 'A'))).toBe('approve');
    expect(keyCommand(on(document.body, 'A', { shiftKey: true }))).toBeNull();
    expect(keyCommand(on(document.body, 'r', { ctrlKey: true }))).toBeNull();
    expect(keyCommand(on(document.body, 'r', { metaKey: true }))).toBeNull();
    expect(keyCommand(on(document.body, 'j', { altKey: true }))).toBeNull();
  });

  it('never fires while typing in a field', () => {
    expect(keyCommand(on(element('<input type="text" />', 'input'), 'a'))).toBeNull();
    expect(keyCommand(on(element('<input type="search" />', 'input'), 'j'))).toBeNull();
    expect(keyCommand(on(element('<textarea></textarea>', 'textarea'), 'r'))).toBeNull();
    expect(keyCommand(on(element('<div contenteditable="true"><b>x</b></div>', 'b'), 'x'))).toBeNull();
    expect(keyCommand(on(element('<select><option>1</option></select>', 'select'), 'a'))).toBeNull();
  });

  it('keeps the list keys on a checkbox (the row selection) but not inside a dialog', () => {
    expect(keyCommand(on(element('<input type="checkbox" />', 'input'), 'j'))).toBe('next');
    expect(keyCommand(on(element('<div role="dialog"><button>ok</button></div>', 'button'), 'a'))).toBeNull();
    expect(keyCommand(on(element('<div role="listbox"><div>1</div></div>', 'div > div'), 'j'))).toBeNull();
  });

  it('leaves Enter to a focused button or link', () => {
    expect(keyCommand(on(element('<button>Approve</button>', 'button'), 'Enter'))).toBeNull();
    expect(keyCommand(on(element('<a href="/x">x</a>', 'a'), 'Enter'))).toBeNull();
    expect(keyCommand(on(element('<button>Approve</button>', 'button'), 'j'))).toBe('next');
  });

  it('does not repeat a decision while a key is held, but moves', () => {
    expect(keyCommand(on(document.body, 'a', { repeat: true }))).toBeNull();
    expect(keyCommand(on(document.body, 'j', { repeat: true }))).toBe('next');
  });

  it('ignores a key another handler took', () => {
    expect(keyCommand(on(document.body, 'a', { defaultPrevented: true }))).toBeNull();
  });

  it('knows text fields from other targets', () => {
    expect(isTypingTarget(null)).toBe(false);
    expect(isTypingTarget(element('<input type="email" />', 'input'))).toBe(true);
    expect(isTypingTarget(element('<input type="radio" />', 'input'))).toBe(false);
  });
});

describe('moveCursor', () => {
  it('starts at the first row and stops at both ends', () => {
    expect(moveCursor(null, 'next', 3)).toBe(0);
    expect(moveCursor(null, 'previous', 3)).toBe(0);
    expect(moveCursor(0, 'next', 3)).toBe(1);
    expect(moveCursor(2, 'next', 3)).toBe(2);
    expect(moveCursor(0, 'previous', 3)).toBe(0);
    expect(moveCursor(1, 'next', 0)).toBeNull();
  });
});

describe('followCursor', () => {
  it('stays on its item when rows arrive or leave above it', () => {
    expect(followCursor([1, 2, 3], 1, [9, 1, 2, 3])).toBe(2);
    expect(followCursor([1, 2, 3], 2, [2, 3])).toBe(1);
  });

  it('takes the place of an item that left, within the list', () => {
    expect(followCursor([1, 2, 3], 1, [1, 3])).toBe(1);
    expect(followCursor([1, 2, 3], 2, [1, 2])).toBe(1);
    expect(followCursor([1], 0, [])).toBeNull();
    expect(followCursor([1, 2], null, [1, 2])).toBeNull();
  });
});
