// One WebSocket to /ws: hello with the session first (never in the URL), versions, ping,
// reconnect with backoff, and actions resent with the same id until answered.

import type { Act, ClientMsg, ServerMsg, Snapshot } from './protocol';

/** What Net needs of a WebSocket (the browser's, or a fake in tests). */
export interface SocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((ev: Event) => void) | null;
  onmessage: ((ev: MessageEvent) => void) | null;
  onclose: ((ev: CloseEvent) => void) | null;
  onerror: ((ev: Event) => void) | null;
}

export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  setInterval(fn: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
  random(): number;
}

export interface Handlers {
  snap(v: number, d: Snapshot): void;
  ack(id: string, v: number): void;
  err(id: string, code: string, text: string): void;
  hint(id: string, text: string, action: Act | null): void;
  bye(code: string, text: string): void;
  state(live: boolean): void;
}

export interface NetOptions {
  url: string;
  session: string;
  channel: string;
  open(url: string): SocketLike;
  clock: Clock;
  on: Handlers;
  /** Makes ids unique across reloads of the page (a resent id is answered, never re-applied). */
  pageId: string;
}

export const PING_MS = 2500;
export const SILENCE_MS = 9000;
export const RESEND_MS = 5000;
export const BACKOFF_MIN_MS = 1000;
export const BACKOFF_MAX_MS = 10000;
const TICK_MS = 500;
const CONNECTING = 0;
const OPEN = 1;

/** The wait before reconnect attempt `n` (0 first): 1 s doubling to 10 s, +-25 % jitter, kept
 * within the bounds. */
export function backoff(n: number, random: number): number {
  const base = Math.min(BACKOFF_MAX_MS, BACKOFF_MIN_MS * 2 ** Math.min(n, 8));
  const jittered = base * (0.75 + 0.5 * random);
  return Math.round(Math.min(BACKOFF_MAX_MS, Math.max(BACKOFF_MIN_MS, jittered)));
}

interface Unanswered {
  msg: ClientMsg;
  sentAt: number;
}

export class Net {
  /** The version (log revision) and game of the newest snapshot: an action names the board it
   * was aimed at, and the server refuses it as stale if the game moved on. */
  v = 0;
  g = 0;
  private sock: SocketLike | null = null;
  private session: string;
  private readonly opts: NetOptions;
  private readonly unanswered = new Map<string, Unanswered>();
  private serial = 0;
  private attempts = 0;
  private lastFrame = 0;
  private lastPing = 0;
  private live = false;
  private stopped = false;
  private tick: unknown = null;
  private retry: unknown = null;

  constructor(opts: NetOptions) {
    this.opts = opts;
    this.session = opts.session;
  }

  start(): void {
    this.stopped = false;
    this.connect();
    if (this.tick === null) this.tick = this.opts.clock.setInterval(() => this.onTick(), TICK_MS);
  }

  /** Close for good (a `bye`, or the page going away). */
  stop(): void {
    this.stopped = true;
    const c = this.opts.clock;
    if (this.tick !== null) c.clearInterval(this.tick);
    if (this.retry !== null) c.clearTimeout(this.retry);
    this.tick = this.retry = null;
    this.drop();
  }

  /** Sign-in renewed (after `bye` session_expired): connect again with the new session. */
  restart(session: string): void {
    this.session = session;
    this.attempts = 0;
    this.start();
  }

  /** Send an action; the id it went with. */
  act(a: Act): string {
    return this.track({ t: 'act', id: this.nextId('a'), g: this.g, v: this.v, a });
  }

  undo(): string {
    return this.track({ t: 'undo', id: this.nextId('u'), g: this.g, v: this.v });
  }

  hint(): string {
    return this.track({ t: 'hint', id: this.nextId('h') });
  }

  /** `online` or the page shown again: reconnect now if the socket is not open. */
  nudge(): void {
    if (this.stopped) return;
    if (this.sock && this.sock.readyState === CONNECTING) return;
    if (this.sock && this.sock.readyState === OPEN) {
      this.send({ t: 'ping' });
      this.lastPing = this.opts.clock.now();
      return;
    }
    if (this.retry !== null) this.opts.clock.clearTimeout(this.retry);
    this.retry = null;
    this.connect();
  }

  private nextId(prefix: string): string {
    this.serial += 1;
    return `${prefix}${this.serial}-${this.opts.pageId}`;
  }

  private track(msg: ClientMsg & { id: string }): string {
    this.unanswered.set(msg.id, { msg, sentAt: this.opts.clock.now() });
    this.send(msg);
    return msg.id;
  }

  private send(msg: ClientMsg): void {
    if (this.sock && this.sock.readyState === OPEN) this.sock.send(JSON.stringify(msg));
  }

  private connect(): void {
    this.drop();
    if (this.stopped) return;
    const sock = this.opts.open(this.opts.url);
    this.sock = sock;
    const now = this.opts.clock.now();
    this.lastFrame = now;
    sock.onopen = () => {
      if (this.sock !== sock) return;
      const at = this.opts.clock.now();
      this.lastFrame = this.lastPing = at;
      sock.send(JSON.stringify({ t: 'hello', session: this.session, channel: this.opts.channel,
        v: this.v } satisfies ClientMsg));
      for (const u of this.unanswered.values()) { // same ids: answered once, applied once
        u.sentAt = at;
        sock.send(JSON.stringify(u.msg));
      }
    };
    sock.onmessage = (ev) => {
      if (this.sock === sock) this.receive(ev.data);
    };
    sock.onclose = sock.onerror = () => {
      if (this.sock === sock) this.lost();
    };
    // a socket opened before sign-in finished (main.ts opens it early) may be open already
    if (sock.readyState === OPEN) sock.onopen?.(new Event('open'));
    else if (sock.readyState > OPEN) this.lost();
  }

  private drop(): void {
    const s = this.sock;
    this.sock = null;
    if (s) {
      s.onopen = s.onmessage = s.onclose = s.onerror = null;
      try {
        s.close();
      } catch {
        // already closed
      }
    }
    this.setLive(false);
  }

  private lost(): void {
    this.drop();
    if (this.stopped || this.retry !== null) return;
    const wait = backoff(this.attempts, this.opts.clock.random());
    this.attempts += 1;
    this.retry = this.opts.clock.setTimeout(() => {
      this.retry = null;
      this.connect();
    }, wait);
  }

  private setLive(live: boolean): void {
    if (live === this.live) return;
    this.live = live;
    this.opts.on.state(live);
  }

  private receive(data: unknown): void {
    this.lastFrame = this.opts.clock.now();
    let msg: ServerMsg;
    try {
      msg = JSON.parse(String(data)) as ServerMsg;
    } catch {
      return;
    }
    const on = this.opts.on;
    switch (msg.t) {
      case 'snap':
        this.attempts = 0;
        this.setLive(true);
        // a socket brings its snapshots in order, newest last (an undo's too: its revision is
        // newer, its board older), and a reconnect's first one is the whole truth: each is shown
        if (typeof msg.v === 'number' && msg.d) {
          this.v = msg.v;
          this.g = msg.d.game.id;
          on.snap(msg.v, msg.d);
        }
        break;
      case 'ack':
        this.unanswered.delete(msg.id);
        on.ack(msg.id, msg.v);
        break;
      case 'err':
        this.unanswered.delete(msg.id);
        on.err(msg.id, msg.code, msg.text);
        break;
      case 'hint':
        this.unanswered.delete(msg.id);
        on.hint(msg.id, msg.text, msg.action ?? null);
        break;
      case 'bye':
        this.stop();
        on.bye(msg.code, msg.text);
        break;
      default:
        break; // pong, or something newer than this page: the frame itself was the news
    }
  }

  private onTick(): void {
    if (this.stopped || !this.sock) return;
    const now = this.opts.clock.now();
    if (this.sock.readyState !== OPEN) {
      if (now - this.lastFrame >= SILENCE_MS) this.lost(); // a connect that never opens
      return;
    }
    if (now - this.lastFrame >= SILENCE_MS) {
      this.lost();
      return;
    }
    if (now - this.lastPing >= PING_MS) {
      this.lastPing = now;
      this.send({ t: 'ping' });
    }
    for (const u of this.unanswered.values()) {
      if (now - u.sentAt >= RESEND_MS) {
        u.sentAt = now;
        this.send(u.msg);
      }
    }
  }
}
