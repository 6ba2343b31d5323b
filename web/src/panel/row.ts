// #row: the combos on offer, numbered as on the picture; a card is a button the viewer taps to
// pick when `moves.pick` (every combo may be tried: the server refuses what she cannot afford).

import { h, Keyed } from '../dom';
import type { Words } from '../i18n';
import type { Combo, Snapshot } from '../protocol';

export function comboWords(c: Combo, w: Words): { name: string; tokens: string; cost: string; coins: string } {
  return {
    name: w.combo(c.race, c.power),
    tokens: w.n('web.tokens', c.tokens),
    cost: c.cost === 0 ? w.t('web.cost_free') : w.t('web.cost', { n: c.cost }),
    coins: c.coins_on_combo > 0 ? w.n('web.coins_on', c.coins_on_combo) : '',
  };
}

function card(c: Combo, w: Words, can: boolean): HTMLElement {
  const words = comboWords(c, w);
  const label = [`${c.slot + 1}.`, words.name, words.tokens, words.cost, words.coins]
    .filter(Boolean).join(', ');
  return h('button', {
    type: 'button', class: `combo${can ? ' can' : ''}`, 'data-slot': c.slot,
    'aria-label': label, 'aria-disabled': can ? null : 'true',
  },
  h('span', { class: 'slot' }, String(c.slot + 1)),
  h('span', { class: 'power' }, w.power(c.power)),
  h('span', { class: 'race' }, w.race(c.race)),
  h('span', { class: 'facts' },
    h('span', { class: 'tokens' }, words.tokens),
    h('span', { class: 'cost' }, words.cost)),
  words.coins ? h('span', { class: 'on-it' }, words.coins) : null);
}

export class Row {
  private readonly keyed: Keyed;
  constructor(readonly el: HTMLElement) {
    this.keyed = new Keyed(el);
  }

  /** Build again on the next update (a web font arrived). */
  forget(): void {
    this.keyed.forget();
  }

  update(snap: Snapshot | null, w: Words, canPick: boolean): void {
    const row = snap?.row ?? [];
    this.keyed.set(JSON.stringify([w.lang, row, canPick]), () => row.map((c) => card(c, w, canPick)));
    this.el.classList.toggle('picking', canPick);
  }
}
