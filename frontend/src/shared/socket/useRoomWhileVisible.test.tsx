import { act, render } from '@testing-library/react';
import { useRef } from 'react';

import { fakeSocketFactory } from '../../testing/fakeSocket';
import { RealtimeConnection, type TokenSource } from './realtimeConnection';
import { JOIN_AFTER_MS, useRoomWhileVisible, VISIBLE_MARGIN } from './useRoomWhileVisible';

const tokens: TokenSource = { current: () => 'guest-token', subscribe: () => () => undefined, renew: async () => null };

/** Plays the browser's IntersectionObserver: the test says which elements are on screen. */
class FakeIntersectionObserver {
  static instances: FakeIntersectionObserver[] = [];
  readonly observed = new Set<Element>();

  constructor(
    private readonly callback: IntersectionObserverCallback,
    readonly options: IntersectionObserverInit = {},
  ) {
    FakeIntersectionObserver.instances.push(this);
  }

  observe(element: Element): void {
    this.observed.add(element);
  }

  unobserve(element: Element): void {
    this.observed.delete(element);
  }

  disconnect(): void {
    this.observed.clear();
  }

  show(element: Element, isIntersecting: boolean): void {
    const entry = { target: element, isIntersecting } as IntersectionObserverEntry;
    this.callback([entry], this as unknown as IntersectionObserver);
  }
}

function Card({ guid, connection }: { guid: string; connection: RealtimeConnection }) {
  const element = useRef<HTMLDivElement>(null);
  useRoomWhileVisible(`tour:${guid}`, element, connection);
  return <div ref={element} data-testid={guid} />;
}

function setUp(guids: string[]) {
  const { factory, sockets } = fakeSocketFactory();
  const connection = new RealtimeConnection(tokens, factory);
  connection.start();
  const socket = sockets[0]!;
  socket.accept();
  const view = render(
    <>
      {guids.map((guid) => (
        <Card key={guid} guid={guid} connection={connection} />
      ))}
    </>,
  );
  const observer = FakeIntersectionObserver.instances.at(-1)!;
  const show = (guid: string, visible: boolean) => act(() => observer.show(view.getByTestId(guid), visible));
  return { connection, socket, view, observer, show };
}

describe('rooms of the cards on screen', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.stubGlobal('IntersectionObserver', FakeIntersectionObserver);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('joins a card’s room once it has stayed on screen, and leaves it when it scrolls away', () => {
    const { socket, observer, show } = setUp(['a', 'b']);
    expect(observer.options.rootMargin).toBe(VISIBLE_MARGIN);
    expect(observer.observed.size).toBe(2); // one observer for every card
    show('a', true);
    expect(socket.sent).toEqual([]);
    act(() => vi.advanceTimersByTime(JOIN_AFTER_MS));
    expect(socket.sent).toEqual([['join', 'tour:a']]);
    show('a', false);
    expect(socket.sent).toEqual([
      ['join', 'tour:a'],
      ['leave', 'tour:a'],
    ]);
  });

  it('sends nothing for cards only flying by', () => {
    const { socket, show } = setUp(['a', 'b']);
    show('a', true);
    act(() => vi.advanceTimersByTime(JOIN_AFTER_MS - 50));
    show('a', false);
    show('b', true);
    show('b', false);
    act(() => vi.advanceTimersByTime(5 * JOIN_AFTER_MS));
    expect(socket.sent).toEqual([]);
  });

  it('leaves the rooms of cards that go away, and stops watching them', () => {
    const { socket, connection, observer, show, view } = setUp(['a']);
    show('a', true);
    act(() => vi.advanceTimersByTime(JOIN_AFTER_MS));
    expect(connection.joinedRooms()).toEqual(['tour:a']);
    view.unmount();
    expect(socket.sent.at(-1)).toEqual(['leave', 'tour:a']);
    expect(connection.joinedRooms()).toEqual([]);
    expect(observer.observed.size).toBe(0);
  });
});
