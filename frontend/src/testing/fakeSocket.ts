import type { Socket } from 'socket.io-client';

import type { SocketFactory } from '../shared/socket/realtimeConnection';

type Handler = (...args: unknown[]) => void;

/** A stand-in for socket.io-client's Socket: records what the page sends, lets a test play the server. */
export class FakeSocket {
  connected = false;
  active = false;
  readonly sent: [string, unknown][] = [];
  connects = 0;
  disconnects = 0;
  private readonly handlers = new Map<string, Handler[]>();
  private readonly anyHandlers: Handler[] = [];

  constructor(readonly options: Record<string, unknown>) {}

  on(event: string, handler: Handler): this {
    this.handlers.set(event, [...(this.handlers.get(event) ?? []), handler]);
    return this;
  }

  onAny(handler: Handler): this {
    this.anyHandlers.push(handler);
    return this;
  }

  removeAllListeners(): this {
    this.handlers.clear();
    this.anyHandlers.length = 0;
    return this;
  }

  /** Acknowledgement callbacks of what the page sent, waiting for the test to answer as the server. */
  readonly acks: { event: string; data: unknown; answer: Handler }[] = [];

  emit(event: string, data: unknown, ack?: Handler): this {
    this.sent.push([event, data]);
    if (ack) this.acks.push({ event, data, answer: ack });
    return this;
  }

  connect(): this {
    this.connects += 1;
    this.active = true;
    return this;
  }

  disconnect(): this {
    this.disconnects += 1;
    this.connected = false;
    this.active = false;
    return this;
  }

  /** The token the page presents (socket.io calls the auth function at every connect). */
  presentedToken(): unknown {
    let token: unknown;
    (this.options.auth as (send: (data: { token: unknown }) => void) => void)((data) => {
      token = data.token;
    });
    return token;
  }

  // ---- the server's side
  accept(): void {
    this.connected = true;
    this.fire('connect');
  }

  refuse(message: string): void {
    this.active = false;
    this.fire('connect_error', new Error(message));
  }

  networkError(): void {
    this.fire('connect_error', new Error('websocket error'));
  }

  /** Answer every acknowledgement still waiting (the server's `{ok: true}` to a join). */
  answerAll(answer: unknown = { ok: true }): void {
    this.acks.splice(0).forEach(({ answer: callback }) => callback(answer));
  }

  push(event: string, data: unknown): void {
    this.anyHandlers.forEach((handler) => handler(event, data));
  }

  private fire(event: string, ...args: unknown[]): void {
    (this.handlers.get(event) ?? []).forEach((handler) => handler(...args));
  }
}

/** A socket factory keeping every socket it made. */
export function fakeSocketFactory(): { factory: SocketFactory; sockets: FakeSocket[] } {
  const sockets: FakeSocket[] = [];
  const factory: SocketFactory = (_url, options) => {
    const socket = new FakeSocket(options as Record<string, unknown>);
    sockets.push(socket);
    return socket as unknown as Socket;
  };
  return { factory, sockets };
}
