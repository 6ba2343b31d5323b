import { beforeEach, describe, expect, it } from 'vitest';
import { backoff, BACKOFF_MAX_MS, BACKOFF_MIN_MS, Net, type Clock, type SocketLike } from '../src/net';
import type { Snapshot } from '../src/protocol';
import { snap } from './fixtures';

class FakeSocket implements SocketLike {
  readyState = 0;
  sent: Record<string, unknown>[] = [];
  closed = false;
  onopen: SocketLike['onopen'] = null;
  onmessage: SocketLike['onmessage'] = null;
  onclose: SocketLike['onclose'] = null;
  onerror: SocketLike['onerror'] = null;
  constructor(readonly url: string) {}
  send(data: string): void { this.sent.push(JSON.parse(data)); }
  close(): void { this.closed = true; this.readyState = 3; }
  open(): void { this.readyState = 1; this.onopen?.(new Event('open')); }
  receive(msg: unknown): void { this.onmessage?.({ data: JSON.stringify(msg) } as MessageEvent); }
  drop(): void { this.readyState = 3; this.onclose?.({} as CloseEvent); }
}

/** A clock the test moves by hand. */
class FakeClock implements Clock {
  t = 1_000_000;
  private timers: { at: number; fn: () => void; every: number; id: number }[] = [];
  private next = 1;
  now(): number { return this.t; }
  setTimeout(fn: () => void, ms: number): unknown { return this.add(fn, ms, 0); }
  setInterval(fn: () => void, ms: number): unknown { return this.add(fn, ms, ms); }
  clearTimeout(h: unknown): void { this.timers = this.timers.filter((x) => x.id !== h); }
  clearInterval(h: unknown): void { this.clearTimeout(h); }
  random(): number { return 0.5; }
  private add(fn: () => void, ms: number, every: number): number {
    const id = this.next++;
    this.timers.push({ at: this.t + ms, fn, every, id });
    return id;
  }
  advance(ms: number): void {
    const end = this.t + ms;
    for (;;) {
      const due = this.timers.filter((x) => x.at <= end).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      this.t = due.at;
      if (due.every) due.at += due.every;
      else this.timers = this.timers.filter((x) => x !== due);
      due.fn();
    }
    this.t = end;
  }
}

let sockets: FakeSocket[];
let clock: FakeClock;
let got: { snaps: number[]; acks: string[]; errs: string[]; byes: string[]; live: boolean[] };
let net: Net;
const d = snap('conquest').d as Snapshot;
const last = (): FakeSocket => sockets[sockets.length - 1]!;

beforeEach(() => {
  sockets = [];
  clock = new FakeClock();
  got = { snaps: [], acks: [], errs: [], byes: [], live: [] };
  net = new Net({
    url: 'wss://example.test/ws', session: 'SECRET', channel: '555', pageId: 'p1', clock,
    open: (url) => { const s = new FakeSocket(url); sockets.push(s); return s; },
    on: {
      snap: (v) => got.snaps.push(v), ack: (id) => got.acks.push(id), err: (_id, code) => got.errs.push(code),
      hint: () => undefined, bye: (code) => got.byes.push(code), state: (live) => got.live.push(live),
    },
  });
  net.start();
});

describe('hello', () => {
  it('sends the session in the first message, never in the URL', () => {
    expect(last().url).toBe('wss://example.test/ws');
    last().open();
    expect(last().sent[0]).toEqual({ t: 'hello', session: 'SECRET', channel: '555', v: 0 });
  });
  it('shows every snapshot in the order its socket brings it, a fresh game\'s revision 0 too', () => {
    last().open();
    last().receive({ t: 'snap', v: 0, d });
    last().receive({ t: 'snap', v: 41, d });
    last().receive({ t: 'snap', v: 42, d });
    expect(got.snaps).toEqual([0, 41, 42]);
    expect(got.live).toEqual([true]);
  });
});

describe('keepalive and reconnect', () => {
  it('pings every 2.5 s', () => {
    last().open();
    clock.advance(2600);
    last().receive({ t: 'pong' });
    clock.advance(2500);
    expect(last().sent.filter((m) => m.t === 'ping')).toHaveLength(2);
  });
  it('reconnects after 9 s without a frame, saying the version it has', () => {
    last().open();
    last().receive({ t: 'snap', v: 41, d });
    clock.advance(8900);
    expect(sockets).toHaveLength(1);
    clock.advance(600);
    expect(sockets[0]!.closed).toBe(true);
    expect(got.live.at(-1)).toBe(false);
    clock.advance(BACKOFF_MIN_MS);
    expect(sockets).toHaveLength(2);
    last().open();
    expect(last().sent[0]).toEqual({ t: 'hello', session: 'SECRET', channel: '555', v: 41 });
  });
  it('backs off from 1 s to 10 s with jitter', () => {
    expect(backoff(0, 0.5)).toBe(1000);
    expect(backoff(1, 0.5)).toBe(2000);
    expect(backoff(10, 0.5)).toBe(10000);
    for (let n = 0; n < 12; n++) {
      for (const r of [0, 0.3, 0.99]) {
        expect(backoff(n, r)).toBeGreaterThanOrEqual(BACKOFF_MIN_MS);
        expect(backoff(n, r)).toBeLessThanOrEqual(BACKOFF_MAX_MS);
      }
    }
    expect(backoff(2, 0)).not.toBe(backoff(2, 0.99));
  });
  it('waits longer after each failed attempt, and a nudge reconnects at once', () => {
    last().drop();
    clock.advance(999);
    expect(sockets).toHaveLength(1);
    clock.advance(1);
    expect(sockets).toHaveLength(2);
    last().drop();
    clock.advance(1999);
    expect(sockets).toHaveLength(2);
    net.nudge();
    expect(sockets).toHaveLength(3);
  });
});

describe('actions', () => {
  it('an unanswered action is sent again after 5 s with the same id, and not after its answer', () => {
    last().open();
    last().receive({ t: 'snap', v: 41, d });
    const id = net.act({ do: 'conquer', region: 16 });
    expect(last().sent.at(-1)).toEqual({ t: 'act', id, g: d.game.id, v: 41,
      a: { do: 'conquer', region: 16 } });
    clock.advance(2000);
    last().receive({ t: 'pong' });
    clock.advance(3100);
    const acts = last().sent.filter((m) => m.t === 'act');
    expect(acts).toHaveLength(2);
    expect(acts[1]).toEqual(acts[0]);
    last().receive({ t: 'ack', id, v: 42 });
    clock.advance(2000);
    last().receive({ t: 'pong' });
    clock.advance(4000);
    expect(last().sent.filter((m) => m.t === 'act')).toHaveLength(2);
    expect(got.acks).toEqual([id]);
  });
  it('an action sent while the socket was down goes out after the hello', () => {
    last().drop();
    const id = net.act({ do: 'end' });
    clock.advance(1000);
    last().open();
    expect(last().sent.map((m) => m.t)).toEqual(['hello', 'act']);
    expect(last().sent[1]?.id).toBe(id);
  });
  it('ids are unique on the page and carry the page id', () => {
    last().open();
    const a = net.act({ do: 'end' });
    const b = net.undo();
    const c = net.hint();
    expect(new Set([a, b, c]).size).toBe(3);
    for (const id of [a, b, c]) expect(id).toMatch(/-p1$/);
  });
  it('a refusal is passed on and the action is not sent again', () => {
    last().open();
    const id = net.act({ do: 'conquer', region: 14 });
    last().receive({ t: 'err', id, code: 'not_adjacent', text: 'Region 14 is not next to your Orcs.' });
    clock.advance(6000);
    expect(last().sent.filter((m) => m.t === 'act')).toHaveLength(1);
    expect(got.errs).toEqual(['not_adjacent']);
  });
});

describe('bye', () => {
  it('closes for good: no reconnect', () => {
    last().open();
    last().receive({ t: 'bye', code: 'session_expired', text: 'Sign in again.' });
    expect(got.byes).toEqual(['session_expired']);
    clock.advance(60_000);
    expect(sockets).toHaveLength(1);
  });
  it('restart connects again with the new session', () => {
    last().open();
    last().receive({ t: 'bye', code: 'session_expired', text: '' });
    net.restart('NEW');
    last().open();
    expect(last().sent[0]).toMatchObject({ t: 'hello', session: 'NEW' });
  });
});
