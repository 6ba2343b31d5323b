// The page's state: the newest snapshot and what the viewer is doing with it. `reduce` is
// pure (no DOM, no socket): every change comes in as an event and gives a new state.

import { moveMax, movesOf, regionChoices } from './options';
import type { Snapshot } from './protocol';

export type Conn = 'connecting' | 'live' | 'signed-out' | 'closed';

export type Dialog =
  /** A region's chooser / sheet: its targets, deploy, move, place, abandon. */
  | { kind: 'region'; region: number }
  /** How many tokens to move between two of her regions. */
  | { kind: 'move'; from: number; to: number }
  /** Decline and End ask first. */
  | { kind: 'confirm'; what: 'decline' | 'end' };

/** An action sent and not yet settled: input waits for its answer and the next snap. */
export interface Pending {
  id: string;
  region: number | null;
  /** The version its `ack` named (null: no ack yet). */
  ackV: number | null;
}

export interface Toast {
  text: string;
  kind: 'error' | 'info';
  seq: number;
}

export interface UI {
  selected: number | null;
  moveFrom: number | null;
  dialog: Dialog | null;
  pending: Pending | null;
  toast: Toast | null;
  hint: string | null;
  /** The region the hint's action is on (ringed on the map), if any. */
  hintAt: number | null;
}

export interface State {
  conn: Conn;
  v: number;
  snap: Snapshot | null;
  /** `moves` as text: a new version with the same moves keeps the viewer's selection. */
  movesKey: string;
  ui: UI;
}

export type Event =
  | { type: 'snap'; v: number; d: Snapshot }
  | { type: 'ack'; id: string; v: number }
  | { type: 'err'; id: string; code: string; text: string }
  | { type: 'hint'; id: string; text: string; region: number | null }
  | { type: 'conn'; conn: Conn }
  | { type: 'sent'; id: string; region: number | null }
  | { type: 'ui'; ui: Partial<UI> }
  | { type: 'toast'; text: string; kind: 'error' | 'info' }
  | { type: 'toast-gone'; seq: number };

export function initial(): State {
  return {
    conn: 'connecting', v: 0, snap: null, movesKey: '',
    ui: {
      selected: null, moveFrom: null, dialog: null, pending: null, toast: null, hint: null,
      hintAt: null,
    },
  };
}

/** Is input blocked (an action on its way)? */
export function busy(state: State): boolean {
  return state.ui.pending !== null;
}

function toast(state: State, text: string, kind: Toast['kind']): Toast {
  return { text, kind, seq: (state.ui.toast?.seq ?? 0) + 1 };
}

/** What of the viewer's selection still makes sense under a new snapshot. */
function carried(ui: UI, snap: Snapshot): Partial<UI> {
  const moves = movesOf(snap);
  const out: Partial<UI> = {};
  const d = ui.dialog;
  if (d?.kind === 'region' && regionChoices(moves, d.region).length === 0) out.dialog = null;
  if (d?.kind === 'move' && moveMax(moves, d.from, d.to) === 0) out.dialog = null;
  if (d?.kind === 'confirm' && !(moves && moves[d.what])) out.dialog = null;
  if (ui.selected !== null && regionChoices(moves, ui.selected).length === 0) out.selected = null;
  if (ui.moveFrom !== null && Object.keys(moves?.move[String(ui.moveFrom)] ?? {}).length === 0) {
    out.moveFrom = null;
  }
  return out;
}

export function reduce(state: State, ev: Event): State {
  switch (ev.type) {
    case 'snap': {
      const movesKey = JSON.stringify(ev.d.moves ?? null) + String(ev.d.me.acts);
      let ui = state.ui;
      const p = ui.pending;
      if (p && p.ackV !== null && ev.v >= p.ackV) ui = { ...ui, pending: null };
      if (movesKey !== state.movesKey) ui = { ...ui, hint: null, hintAt: null, ...carried(ui, ev.d) };
      return { ...state, v: ev.v, snap: ev.d, movesKey, ui };
    }
    case 'ack': {
      const p = state.ui.pending;
      if (!p || p.id !== ev.id) return state;
      const pending = state.v >= ev.v ? null : { ...p, ackV: ev.v };
      return { ...state, ui: { ...state.ui, pending } };
    }
    case 'err': {
      const p = state.ui.pending;
      const pending = p && p.id === ev.id ? null : p;
      return { ...state, ui: { ...state.ui, pending, toast: toast(state, ev.text, 'error') } };
    }
    case 'hint': {
      const p = state.ui.pending;
      const pending = p && p.id === ev.id ? null : p;
      return { ...state, ui: { ...state.ui, pending, hint: ev.text, hintAt: ev.region } };
    }
    case 'conn':
      return ev.conn === state.conn ? state : { ...state, conn: ev.conn };
    case 'sent':
      return {
        ...state,
        ui: {
          ...state.ui, dialog: null, moveFrom: null,
          pending: { id: ev.id, region: ev.region, ackV: null },
        },
      };
    case 'ui':
      return { ...state, ui: { ...state.ui, ...ev.ui } };
    case 'toast':
      return { ...state, ui: { ...state.ui, toast: toast(state, ev.text, ev.kind) } };
    case 'toast-gone':
      return state.ui.toast?.seq === ev.seq ? { ...state, ui: { ...state.ui, toast: null } } : state;
  }
}
