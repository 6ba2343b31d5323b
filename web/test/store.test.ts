import { describe, expect, it } from 'vitest';
import { busy, initial, reduce } from '../src/store';
import { snap, stateOf } from './fixtures';

describe('versions', () => {
  it('shows each snapshot it is given: the socket brings them in order', () => {
    const s = stateOf('conquest');
    const next = snap('redeploy');
    const shown = reduce(s, { type: 'snap', v: next.v, d: next.d });
    expect(shown.v).toBe(next.v);
    expect(shown.snap).toBe(next.d);
  });
});

describe('a pending action', () => {
  const sent = (s = stateOf('conquest')) => reduce(s, { type: 'sent', id: 'a1', region: 16 });

  it('blocks input from sending until its ack and the snap of that version', () => {
    let s = sent();
    expect(busy(s)).toBe(true);
    s = reduce(s, { type: 'ack', id: 'a1', v: 42 });
    expect(busy(s)).toBe(true); // acked, but the board still shows version 41
    s = reduce(s, { type: 'snap', v: 42, d: snap('redeploy').d });
    expect(busy(s)).toBe(false);
  });

  it('settles too when the snap comes before the ack', () => {
    let s = sent();
    s = reduce(s, { type: 'snap', v: 42, d: snap('redeploy').d });
    expect(busy(s)).toBe(true);
    s = reduce(s, { type: 'ack', id: 'a1', v: 42 });
    expect(busy(s)).toBe(false);
  });

  it('a refusal settles it and shows the sentence', () => {
    const s = reduce(sent(), { type: 'err', id: 'a1', code: 'not_adjacent', text: 'Region 14 is not next to your Orcs.' });
    expect(busy(s)).toBe(false);
    expect(s.ui.toast?.text).toBe('Region 14 is not next to your Orcs.');
    expect(s.ui.toast?.kind).toBe('error');
  });

  it("another action's answer does not settle it", () => {
    const s = reduce(sent(), { type: 'ack', id: 'zz', v: 99 });
    expect(busy(s)).toBe(true);
    expect(s.ui.pending?.ackV).toBeNull();
  });
});

describe('selection across versions', () => {
  it('keeps a sheet whose region still offers something, drops one that does not', () => {
    const s = reduce(stateOf('conquest'), { type: 'ui', ui: { selected: 13, dialog: { kind: 'region', region: 13 } } });
    const moved = snap('conquest');
    moved.d.moves = { ...moved.d.moves!, deploy: { 15: 2 } };
    const kept = reduce(s, { type: 'snap', v: 50, d: moved.d });
    expect(kept.ui.dialog).toEqual({ kind: 'region', region: 13 }); // abandon is still offered on 13
    moved.d.moves = { ...moved.d.moves, abandon: [], deploy: {}, place: [] };
    const dropped = reduce(kept, { type: 'snap', v: 51, d: moved.d });
    expect(dropped.ui.dialog).toBeNull();
    expect(dropped.ui.selected).toBeNull();
  });

  it('a new version with the same moves keeps the selection as it is', () => {
    const s = reduce(stateOf('conquest'), { type: 'ui', ui: { selected: 13, dialog: { kind: 'region', region: 13 } } });
    const next = snap('conquest');
    const kept = reduce(s, { type: 'snap', v: next.v + 1, d: { ...next.d, lines: ['x'] } });
    expect(kept.ui).toBe(s.ui);
  });

  it('toasts go away only by their own number', () => {
    let s = reduce(initial(), { type: 'toast', text: 'a', kind: 'info' });
    const first = s.ui.toast?.seq ?? 0;
    s = reduce(s, { type: 'toast', text: 'b', kind: 'info' });
    expect(reduce(s, { type: 'toast-gone', seq: first }).ui.toast?.text).toBe('b');
    expect(reduce(s, { type: 'toast-gone', seq: first + 1 }).ui.toast).toBeNull();
  });
});

describe('a hint', () => {
  it('rings the region its action is on until her moves change', () => {
    let s = stateOf('conquest');
    s = reduce(s, { type: 'hint', id: 'h1', text: 'Conquer region 16', region: 16 });
    expect(s.ui.hint).toBe('Conquer region 16');
    expect(s.ui.hintAt).toBe(16);
    const next = snap('redeploy');
    s = reduce(s, { type: 'snap', v: next.v, d: next.d });
    expect(s.ui.hint).toBeNull();
    expect(s.ui.hintAt).toBeNull();
  });
});
