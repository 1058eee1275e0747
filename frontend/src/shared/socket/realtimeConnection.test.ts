import { fakeSocketFactory } from '../../testing/fakeSocket';
import { MAX_JOINED_ROOMS, RealtimeConnection, RECONNECT_OPTIONS, REFUSALS, type TokenSource } from './realtimeConnection';

class Tokens implements TokenSource {
  token: string | null = null;
  renewals = 0;
  private readonly listeners = new Set<() => void>();

  current(): string | null {
    return this.token;
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async renew(): Promise<string | null> {
    this.renewals += 1;
    this.set(`renewed-${this.renewals}`);
    return this.token;
  }

  set(token: string | null): void {
    this.token = token;
    this.listeners.forEach((listener) => listener());
  }
}

function setUp(token: string | null = 'guest-token') {
  const tokens = new Tokens();
  tokens.token = token;
  const { factory, sockets } = fakeSocketFactory();
  const connection = new RealtimeConnection(tokens, factory);
  return { tokens, sockets, connection };
}

describe('the realtime connection', () => {
  it('fetches the client library when started, then connects; a failed fetch is tried again on the next token', async () => {
    const tokens = new Tokens();
    tokens.token = 'guest-token';
    const { factory, sockets } = fakeSocketFactory();
    const load = vi.fn().mockRejectedValueOnce(new Error('chunk gone')).mockResolvedValue(factory);
    const connection = new RealtimeConnection(tokens, { load });
    expect(load).not.toHaveBeenCalled(); // nothing is fetched before the app starts the connection
    connection.start();
    await vi.waitFor(() => expect(load).toHaveBeenCalledTimes(1));
    await Promise.resolve();
    expect(sockets).toHaveLength(0);

    tokens.set('user-token');
    await vi.waitFor(() => expect(sockets).toHaveLength(1));
    expect(load).toHaveBeenCalledTimes(2);
    expect(sockets[0]?.presentedToken()).toBe('user-token');
    expect(sockets[0]?.connects).toBe(1);
  });

  it('does not connect when stopped before the library arrived', async () => {
    const tokens = new Tokens();
    tokens.token = 'guest-token';
    const { factory, sockets } = fakeSocketFactory();
    let deliver: (value: typeof factory) => void = () => undefined;
    const connection = new RealtimeConnection(tokens, { load: () => new Promise((resolve) => (deliver = resolve)) });
    connection.start();
    connection.stop();
    deliver(factory);
    await Promise.resolve();
    await Promise.resolve();
    expect(sockets).toHaveLength(0);
  });

  it('waits for a token, then connects once with it and reconnects with backoff', () => {
    const { tokens, sockets, connection } = setUp(null);
    connection.start();
    expect(sockets).toHaveLength(0);

    tokens.set('guest-token');
    expect(sockets).toHaveLength(1);
    const [socket] = sockets;
    expect(socket?.connects).toBe(1);
    expect(socket?.presentedToken()).toBe('guest-token');
    expect(socket?.options).toMatchObject({ path: '/socket.io', autoConnect: false, ...RECONNECT_OPTIONS });
    expect(socket?.options.transports).toEqual(['websocket', 'polling']);
  });

  it('connects again with the new token when it changes, and drops the connection when it is gone', () => {
    const { tokens, sockets, connection } = setUp();
    connection.start();
    const socket = sockets[0]!;
    socket.accept();
    tokens.set('user-token'); // signed in
    expect(sockets).toHaveLength(1); // one socket per tab, re-authenticated
    expect(socket.disconnects).toBe(1);
    expect(socket.connects).toBe(2);
    expect(socket.presentedToken()).toBe('user-token');
    tokens.set('user-token'); // another storage write, same token: nothing to do
    expect(socket.connects).toBe(2);
    tokens.set(null);
    expect(socket.disconnects).toBe(2);
  });

  it('joins and leaves rooms as pages come and go, sharing a room between two of them', () => {
    const { sockets, connection } = setUp();
    connection.start();
    const socket = sockets[0]!;
    const releaseEarly = connection.join('tour:abc'); // before the connection is up
    socket.accept();
    expect(socket.sent).toEqual([['join', 'tour:abc']]);

    const releaseSecond = connection.join('tour:abc');
    const releaseCreator = connection.join('creator:7');
    expect(socket.sent.slice(1)).toEqual([['join', 'creator:7']]);
    releaseEarly();
    releaseEarly(); // twice is once
    expect(connection.joinedRooms()).toEqual(['tour:abc', 'creator:7']);
    releaseSecond();
    releaseCreator();
    expect(socket.sent.slice(2)).toEqual([
      ['leave', 'tour:abc'],
      ['leave', 'creator:7'],
    ]);
    expect(connection.joinedRooms()).toEqual([]);
  });

  it('never asks the server for more rooms than it allows; a waiting room joins when one is left', () => {
    const { sockets, connection } = setUp();
    connection.start();
    const socket = sockets[0]!;
    socket.accept();
    const releases = Array.from({ length: MAX_JOINED_ROOMS + 2 }, (_, index) => connection.join(`tour:t${index}`));
    const joins = () => socket.sent.filter(([event]) => event === 'join').map(([, room]) => room);
    expect(joins()).toHaveLength(MAX_JOINED_ROOMS);
    expect(joins()).not.toContain(`tour:t${MAX_JOINED_ROOMS}`);

    releases[MAX_JOINED_ROOMS + 1]!(); // a waiting room is given up: the server never heard of it
    expect(socket.sent.filter(([event]) => event === 'leave')).toEqual([]);

    releases[0]!(); // a room on the server is left: the first waiting one takes its place
    expect(socket.sent.slice(-2)).toEqual([
      ['leave', 'tour:t0'],
      ['join', `tour:t${MAX_JOINED_ROOMS}`],
    ]);
    expect(connection.serverRooms()).toHaveLength(MAX_JOINED_ROOMS);

    socket.disconnect();
    socket.accept(); // after a reconnect, only the rooms within the limit are asked for again
    expect(socket.sent.filter(([event]) => event === 'join')).toHaveLength(2 * MAX_JOINED_ROOMS + 1);
  });

  it('tells which rooms the server confirmed, and forgets them with the connection', () => {
    const { sockets, connection } = setUp();
    const told: string[][] = [];
    connection.onRoomsChanged((rooms) => told.push(rooms));
    connection.start();
    const socket = sockets[0]!;
    connection.join('tour:abc');
    const releaseCreator = connection.join('creator:7');
    socket.accept();
    expect(connection.confirmedRooms()).toEqual([]); // asked, not answered yet
    socket.acks[1]!.answer({ ok: false, error: 'too many rooms' });
    socket.acks[0]!.answer({ ok: true });
    expect(told).toEqual([['tour:abc']]);

    releaseCreator(); // never confirmed: nothing to tell
    expect(told).toHaveLength(1);
    connection.stop();
    expect(connection.confirmedRooms()).toEqual([]);
    expect(told.at(-1)).toEqual([]);
  });

  it('takes no late confirmation for a room already left', () => {
    const { sockets, connection } = setUp();
    connection.start();
    const socket = sockets[0]!;
    socket.accept();
    const release = connection.join('tour:abc');
    release();
    socket.answerAll();
    expect(connection.confirmedRooms()).toEqual([]);
  });

  it('joins its rooms again after a reconnect and says it was a reconnect', () => {
    const { sockets, connection } = setUp();
    const connections: boolean[] = [];
    connection.onConnected((reconnected) => connections.push(reconnected));
    connection.start();
    const socket = sockets[0]!;
    connection.join('tour:abc');
    socket.accept();
    socket.disconnect(); // the network drops; socket.io reconnects by itself
    socket.accept();
    expect(socket.sent).toEqual([
      ['join', 'tour:abc'],
      ['join', 'tour:abc'],
    ]);
    expect(connections).toEqual([false, true]);
  });

  it('renews an expired token once and connects with the renewed one', async () => {
    const { tokens, sockets, connection } = setUp('expired-token');
    connection.start();
    const socket = sockets[0]!;
    socket.refuse(REFUSALS.expired);
    await vi.waitFor(() => expect(tokens.renewals).toBe(1));
    expect(socket.presentedToken()).toBe('renewed-1');
    expect(socket.connects).toBe(2);
  });

  it('leaves network failures to socket.io and waits for another token after other refusals', async () => {
    const { tokens, sockets, connection } = setUp();
    connection.start();
    const socket = sockets[0]!;
    socket.networkError(); // still active: socket.io retries with its backoff
    socket.refuse(REFUSALS.inactive);
    await Promise.resolve();
    expect(tokens.renewals).toBe(0);
    expect(socket.connects).toBe(1);
  });

  it('hands every pushed event to its listeners until they unsubscribe, and stops cleanly', () => {
    const { sockets, connection } = setUp();
    const heard: [string, unknown][] = [];
    const unsubscribe = connection.onEvent((event, data) => heard.push([event, data]));
    connection.start();
    const socket = sockets[0]!;
    socket.accept();
    socket.push('tour:counters', { id: 'abc' });
    unsubscribe();
    socket.push('tour:counters', { id: 'def' });
    expect(heard).toEqual([['tour:counters', { id: 'abc' }]]);
    connection.stop();
    expect(socket.disconnects).toBe(1);
    expect(connection.connected).toBe(false);
  });
});
