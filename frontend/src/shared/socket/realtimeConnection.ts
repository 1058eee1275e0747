import type { ManagerOptions, Socket, SocketOptions } from 'socket.io-client';

import { renewBearerToken } from '../api/tokenRenewal';
import { getBearerToken } from '../auth/session';
import { subscribeToStorage } from '../storage/localStore';
import { afterFirstScreen } from '../timing/afterFirstScreen';

export type SocketFactory = (url: string | undefined, options: Partial<ManagerOptions & SocketOptions>) => Socket;

/** A socket factory that is fetched first: the client library is not in the feed's first download. */
export interface SocketFactoryLoader {
  load(): Promise<SocketFactory>;
}

/** socket.io-client (about 13 kB gzipped), fetched when the connection starts, once the first screen is drawn. */
export const socketIoLoader: SocketFactoryLoader = {
  load: async () => {
    await afterFirstScreen();
    return (await import('socket.io-client')).io;
  },
};

/** Where the socket's token comes from: the user's access token, else the guest token (spec §7). */
export interface TokenSource {
  current(): string | null;
  /** Called whenever the stored tokens may have changed (sign-in, renewal, sign-out). */
  subscribe(listener: () => void): () => void;
  /** Renew the token after the server refused it as expired; resolves with the new one (or null). */
  renew(): Promise<string | null>;
}

export type EventListener = (event: string, data: unknown) => void;
export type ConnectedListener = (reconnected: boolean) => void;
export type DisconnectedListener = () => void;
export type RoomsListener = (rooms: string[]) => void;

/** The server's answer to a join or leave (the Socket.IO acknowledgement). */
interface RoomAnswer {
  ok?: boolean;
  error?: string;
}

/** The server's answers to a refused connection (app/realtime/server.py). */
export const REFUSALS = {
  expired: 'invalid or expired token',
  noToken: 'token required',
  inactive: 'this account is not active',
} as const;

/**
 * Reconnecting after a lost connection: 1 s, then doubling up to 30 s, each delay ±50 % at random,
 * so a restarted server is not hit by every open page in the same second.
 */
export const RECONNECT_OPTIONS = {
  reconnection: true,
  reconnectionDelay: 1_000,
  reconnectionDelayMax: 30_000,
  randomizationFactor: 0.5,
} as const;

/**
 * The rooms one socket may be in on the server (MAX_JOINED_ROOMS of app/realtime/server.py, 100)
 * less the ones it is given on connect: its own, `everyone`, `user:{id}` and `admins`. Pages asking for
 * more wait, in the order they asked, until a room is left (tests/realtime/test_contract.py keeps the
 * numbers together).
 */
export const MAX_JOINED_ROOMS = 96;

/**
 * The tab's one Socket.IO connection. It connects once a token is known, and connects again with the
 * new token whenever it changes (sign-in, sign-out, renewal): the server decides the user's rooms
 * from the token at connect time. Rooms joined by pages are counted, so two components showing the
 * same tour share one membership, and they are joined again after every reconnect (the server forgets
 * them with the old connection).
 */
export class RealtimeConnection {
  private socket: Socket | null = null;
  private token: string | null = null;
  private readonly rooms = new Map<string, number>();
  private readonly eventListeners = new Set<EventListener>();
  private readonly connectedListeners = new Set<ConnectedListener>();
  private readonly disconnectedListeners = new Set<DisconnectedListener>();
  private readonly roomsListeners = new Set<RoomsListener>();
  /** Rooms the server has confirmed for this connection. */
  private readonly confirmed = new Set<string>();
  private stopFollowingToken: (() => void) | null = null;
  private hasConnected = false;
  private renewing = false;
  /** The socket factory once known: given, or fetched by `factoryLoader` on the first start. */
  private createSocket: SocketFactory | null;
  private readonly factoryLoader: SocketFactoryLoader | null;
  private loadingFactory = false;

  constructor(
    private readonly tokens: TokenSource,
    socketFactory: SocketFactory | SocketFactoryLoader = socketIoLoader,
    private readonly url?: string,
  ) {
    this.createSocket = typeof socketFactory === 'function' ? socketFactory : null;
    this.factoryLoader = typeof socketFactory === 'function' ? null : socketFactory;
  }

  start(): void {
    if (this.stopFollowingToken) return;
    this.stopFollowingToken = this.tokens.subscribe(() => this.followToken());
    this.followToken();
  }

  stop(): void {
    this.stopFollowingToken?.();
    this.stopFollowingToken = null;
    if (this.socket?.connected) this.disconnectedListeners.forEach((listener) => listener());
    this.socket?.disconnect();
    this.socket?.removeAllListeners();
    this.socket = null;
    this.token = null;
    this.hasConnected = false;
    this.forgetConfirmedRooms();
  }

  get connected(): boolean {
    return this.socket?.connected ?? false;
  }

  /** Rooms some page is in right now. */
  joinedRooms(): string[] {
    return [...this.rooms.keys()];
  }

  /** Rooms the server has (or will have once connected): the first MAX_JOINED_ROOMS asked for. */
  serverRooms(): string[] {
    return this.joinedRooms().slice(0, MAX_JOINED_ROOMS);
  }

  /** Be in `room` until the returned function is called (or, past the limit, once a room is free). */
  join(room: string): () => void {
    const members = this.rooms.get(room) ?? 0;
    this.rooms.set(room, members + 1);
    if (members === 0 && this.rooms.size <= MAX_JOINED_ROOMS) this.send('join', room);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.rooms.get(room) ?? 1) - 1;
      if (left > 0) {
        this.rooms.set(room, left);
        return;
      }
      const wasOnServer = this.serverRooms().includes(room);
      this.rooms.delete(room);
      if (!wasOnServer) return;
      this.send('leave', room);
      // The first waiting room takes the freed place.
      const promoted = this.joinedRooms()[MAX_JOINED_ROOMS - 1];
      if (promoted !== undefined) this.send('join', promoted);
    };
  }

  /** Rooms the server has confirmed: pushes to them reach this tab. */
  confirmedRooms(): string[] {
    return [...this.confirmed];
  }

  /** Each change of the confirmed rooms. */
  onRoomsChanged(listener: RoomsListener): () => void {
    this.roomsListeners.add(listener);
    return () => this.roomsListeners.delete(listener);
  }

  private send(event: 'join' | 'leave', room: string): void {
    const socket = this.socket;
    if (!socket?.connected) return;
    if (event === 'leave') {
      socket.emit(event, room);
      this.setConfirmed(room, false);
      return;
    }
    socket.emit(event, room, (answer: RoomAnswer | undefined) => {
      // A late answer from an older connection, or for a room left meanwhile, confirms nothing.
      if (answer?.ok && socket === this.socket && socket.connected && this.serverRooms().includes(room)) this.setConfirmed(room, true);
    });
  }

  private setConfirmed(room: string, confirmed: boolean): void {
    const changed = confirmed ? !this.confirmed.has(room) : this.confirmed.has(room);
    if (!changed) return;
    if (confirmed) this.confirmed.add(room);
    else this.confirmed.delete(room);
    this.notifyRooms();
  }

  private forgetConfirmedRooms(): void {
    if (this.confirmed.size === 0) return;
    this.confirmed.clear();
    this.notifyRooms();
  }

  private notifyRooms(): void {
    const rooms = this.confirmedRooms();
    this.roomsListeners.forEach((listener) => listener(rooms));
  }

  /** Every event the server pushes; returns the unsubscribe function. */
  onEvent(listener: EventListener): () => void {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener);
  }

  /** Each successful connection; `reconnected` is true after the first (events may have been missed). */
  onConnected(listener: ConnectedListener): () => void {
    this.connectedListeners.add(listener);
    return () => this.connectedListeners.delete(listener);
  }

  /** Each lost or closed connection. */
  onDisconnected(listener: DisconnectedListener): () => void {
    this.disconnectedListeners.add(listener);
    return () => this.disconnectedListeners.delete(listener);
  }

  private followToken(): void {
    if (!this.createSocket) {
      this.loadSocketFactory();
      return;
    }
    const token = this.tokens.current();
    if (token === this.token) return;
    this.token = token;
    if (token === null) {
      this.socket?.disconnect();
      this.forgetConfirmedRooms();
      return;
    }
    const socket = this.ensureSocket(this.createSocket);
    if (socket.connected || socket.active) socket.disconnect();
    this.forgetConfirmedRooms();
    socket.connect();
  }

  /** Fetch the client library once; the token is followed when it arrives (if still started). */
  private loadSocketFactory(): void {
    if (this.loadingFactory || !this.factoryLoader) return;
    this.loadingFactory = true;
    this.factoryLoader.load().then(
      (factory) => {
        this.createSocket = factory;
        if (this.stopFollowingToken) this.followToken();
      },
      // A failed fetch (a new release replaced the chunk, the network dropped): the next token change
      // tries again; the page works without pushes meanwhile.
      () => {
        this.loadingFactory = false;
      },
    );
  }

  private ensureSocket(createSocket: SocketFactory): Socket {
    if (this.socket) return this.socket;
    const socket = createSocket(this.url, {
      path: '/socket.io',
      autoConnect: false,
      // WebSocket first: it needs no sticky sessions between API processes; long-polling is the
      // fallback where a proxy refuses WebSockets.
      transports: ['websocket', 'polling'],
      tryAllTransports: true,
      // Read at every (re)connect, so a reconnect after a renewal presents the new token.
      auth: (send) => send({ token: this.token }),
      ...RECONNECT_OPTIONS,
    });
    socket.on('connect', () => this.handleConnect());
    socket.on('disconnect', () => {
      this.forgetConfirmedRooms(); // the server forgets them with the connection
      this.disconnectedListeners.forEach((listener) => listener());
    });
    socket.on('connect_error', (error: Error) => void this.handleRefusal(socket, error));
    socket.onAny((event: string, data: unknown) => this.eventListeners.forEach((listener) => listener(event, data)));
    this.socket = socket;
    return socket;
  }

  private handleConnect(): void {
    for (const room of this.serverRooms()) this.send('join', room);
    const reconnected = this.hasConnected;
    this.hasConnected = true;
    this.connectedListeners.forEach((listener) => listener(reconnected));
  }

  /**
   * A connection the server refused is not retried by socket.io (`active` is false); a network
   * failure is, with the backoff above. An expired token is renewed once, and the renewed token,
   * once stored, reconnects through followToken. Other refusals wait for another token.
   */
  private async handleRefusal(socket: Socket, error: Error): Promise<void> {
    if (socket.active || error.message !== REFUSALS.expired || this.renewing) return;
    this.renewing = true;
    try {
      await this.tokens.renew();
    } finally {
      this.renewing = false;
    }
  }
}

const browserTokens: TokenSource = {
  current: getBearerToken,
  subscribe: subscribeToStorage,
  renew: renewBearerToken,
};

let tabConnection: RealtimeConnection | null = null;

/** The tab's connection (created on first use; started by the app's RealtimeBridge). */
export function getRealtimeConnection(): RealtimeConnection {
  tabConnection ??= new RealtimeConnection(browserTokens);
  return tabConnection;
}
