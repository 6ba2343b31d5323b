// #actions: the action bar, only for the viewer who must act, with only what `moves` offers.

import { h, Keyed } from '../dom';
import type { Words } from '../i18n';
import { movesOf } from '../options';
import type { Snapshot } from '../protocol';

export interface ActionButton {
  act: 'roll' | 'decline' | 'end' | 'undo' | 'hint' | 'ally';
  word: string;
  target?: string;
  main?: boolean;
}

/** The buttons `moves` allows, in bar order. */
export function buttons(snap: Snapshot | null): ActionButton[] {
  const moves = movesOf(snap);
  if (!snap || !moves) return [];
  const out: ActionButton[] = [];
  if (moves.roll) out.push({ act: 'roll', word: 'web.roll', main: true });
  for (const target of moves.ally) out.push({ act: 'ally', word: 'web.ally', target });
  if (moves.end) out.push({ act: 'end', word: 'web.end', main: true });
  if (moves.decline) out.push({ act: 'decline', word: 'web.decline' });
  if (moves.undo) out.push({ act: 'undo', word: 'web.undo' });
  if (snap.game.hints) out.push({ act: 'hint', word: 'web.hint' });
  return out;
}

export class Actions {
  private readonly keyed: Keyed;
  constructor(readonly el: HTMLElement) {
    this.keyed = new Keyed(el);
  }

  /** Build again on the next update (a web font arrived). */
  forget(): void {
    this.keyed.forget();
  }

  update(snap: Snapshot | null, w: Words, busy: boolean): void {
    const list = buttons(snap);
    const names = new Map((snap?.players ?? []).map((p) => [p.name, p.display]));
    this.keyed.set(JSON.stringify([w.lang, list, busy]), () => list.map((b) => h('button', {
      type: 'button', 'data-act': b.act, 'data-target': b.target ?? null,
      class: b.main ? 'main' : null, disabled: busy,
    }, w.t(b.word, { player: names.get(b.target ?? '') ?? b.target ?? '' }))));
    this.el.hidden = list.length === 0;
  }
}
