// What a tap, a key or a button means, as a pure function of the state: a change of the
// viewer's selection, something to send, or both. The controller applies the outcome.

import { moveMax, movesOf, regionChoices, type Choice, type Out } from './options';
import { busy, type State, type UI } from './store';

export interface Outcome {
  ui?: Partial<UI>;
  send?: Out;
}

const NOTHING: Outcome = {};
const CLOSED: Partial<UI> = { dialog: null, selected: null, moveFrom: null };

/** A tap (or Enter) on a region. */
export function tapRegion(state: State, region: number): Outcome {
  const moves = movesOf(state.snap);
  if (!moves || busy(state)) return NOTHING;
  const from = state.ui.moveFrom;
  if (from !== null) {
    const max = moveMax(moves, from, region);
    if (max === 1) {
      return { send: { kind: 'act', a: { do: 'move', from, to: region, count: 1 }, region } };
    }
    if (max > 1) return { ui: { dialog: { kind: 'move', from, to: region } } };
    if (region === from) return { ui: CLOSED };
    // any other region: leave "move from" and treat the tap as a fresh one
  }
  const choices = regionChoices(moves, region);
  if (choices.length === 0) return from !== null || state.ui.selected !== null ? { ui: CLOSED } : NOTHING;
  const only = choices[0];
  if (choices.length === 1 && only && only.out && isTarget(only)) return { ui: CLOSED, send: only.out };
  return { ui: { selected: region, moveFrom: null, dialog: { kind: 'region', region } } };
}

function isTarget(c: Choice): boolean {
  return c.word.startsWith('web.verb.');
}

/** A button of a dialog. */
export function choose(state: State, c: Choice): Outcome {
  if (busy(state)) return NOTHING;
  if (c.moveFrom !== undefined) {
    return { ui: { dialog: null, selected: c.moveFrom, moveFrom: c.moveFrom } };
  }
  if (c.out) return { ui: { selected: null }, send: c.out };
  return { ui: CLOSED };
}

/** Escape, "Cancel", a tap outside: back to nothing selected. */
export function cancel(): Outcome {
  return { ui: CLOSED };
}

export type Button = 'roll' | 'decline' | 'end' | 'undo' | 'hint';

/** An action-bar button. Decline always asks; End asks when the server says so. */
export function press(state: State, button: Button): Outcome {
  const moves = movesOf(state.snap);
  if (busy(state)) return NOTHING;
  switch (button) {
    case 'hint':
      return state.snap?.game.hints && state.snap.me.acts ? { send: { kind: 'hint' } } : NOTHING;
    case 'undo':
      return moves?.undo ? { ui: CLOSED, send: { kind: 'undo' } } : NOTHING;
    case 'roll':
      return moves?.roll ? { ui: CLOSED, send: { kind: 'act', a: { do: 'roll' } } } : NOTHING;
    case 'decline':
      return moves?.decline ? { ui: { ...CLOSED, dialog: { kind: 'confirm', what: 'decline' } } } : NOTHING;
    case 'end':
      if (!moves?.end) return NOTHING;
      if (moves.end_asks) return { ui: { ...CLOSED, dialog: { kind: 'confirm', what: 'end' } } };
      return { ui: CLOSED, send: { kind: 'act', a: { do: 'end' } } };
  }
}

/** The answer to Decline's or End's question. */
export function confirm(state: State, yes: boolean): Outcome {
  const d = state.ui.dialog;
  if (!yes || d?.kind !== 'confirm') return { ui: { dialog: null } };
  if (busy(state)) return NOTHING;
  return { ui: { dialog: null }, send: { kind: 'act', a: { do: d.what } } };
}

/** A combo card of the row. */
export function pickSlot(state: State, slot: number): Outcome {
  const moves = movesOf(state.snap);
  if (!moves?.pick || busy(state)) return NOTHING;
  return { ui: CLOSED, send: { kind: 'act', a: { do: 'pick', slot } } };
}

/** Diplomat: an ally button. */
export function ally(state: State, target: string): Outcome {
  const moves = movesOf(state.snap);
  if (!moves?.ally.includes(target) || busy(state)) return NOTHING;
  return { ui: CLOSED, send: { kind: 'act', a: { do: 'ally', target } } };
}
