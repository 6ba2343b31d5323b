// #players: every player's public line: colour, name, AI/away marks, the active race with its
// tokens, tokens in hand, regions held, the races in decline (coins only once the game is over).

import { h, Keyed } from '../dom';
import type { Words } from '../i18n';
import type { Player, Snapshot } from '../protocol';

function swatch(colour: string): HTMLElement {
  const s = h('span', { class: 'swatch', 'aria-hidden': 'true' });
  s.style.background = colour;
  return s;
}

export function activeLine(p: Player, w: Words): string {
  const parts: string[] = [];
  const a = p.active;
  parts.push(a ? w.combo(a.race, a.power) : w.t('web.no_race'));
  if (a) parts.push(w.t('web.on_map', { n: a.tokens_on_board ?? 0 }));
  parts.push(w.t('web.in_hand', { n: p.hand ?? 0 }));
  parts.push(w.n('web.regions', p.regions ?? 0));
  return parts.join(' \u00b7 ');
}

export function declineLine(p: Player, w: Words): string {
  const d = p.decline ?? [];
  if (d.length === 0) return '';
  return w.t('web.in_decline', {
    list: w.list(d.map((x) => `${w.combo(x.race, x.power)} (${x.tokens_on_board ?? 0})`)),
  });
}

function row(p: Player, snap: Snapshot, w: Words): HTMLElement {
  const current = !snap.finished && p.name === (snap.actor ?? snap.current);
  const marks: string[] = [];
  if (p.ai) marks.push(w.t('web.ai'));
  if (p.away) marks.push(w.t('web.away'));
  if (p.name === snap.me.seat) marks.push(w.t('web.you'));
  const li = h('li', { class: `player${current ? ' current' : ''}`, 'aria-current': current ? 'true' : null },
    swatch(p.colour),
    h('span', { class: 'who' },
      h('b', { class: 'name' }, p.display),
      marks.length ? h('span', { class: 'marks' }, ` ${marks.join(' \u00b7 ')}`) : null,
      typeof p.coins === 'number' ? h('span', { class: 'final-coins' }, ` ${w.n('web.coin_count', p.coins)}`) : null),
    h('span', { class: 'line' }, activeLine(p, w)),
    declineLine(p, w) ? h('span', { class: 'line decline' }, declineLine(p, w)) : null);
  li.style.setProperty('--c', p.colour);
  return li;
}

export class Players {
  private readonly keyed: Keyed;
  constructor(el: HTMLElement) {
    this.keyed = new Keyed(el);
  }

  /** Build again on the next update (a web font arrived). */
  forget(): void {
    this.keyed.forget();
  }

  update(snap: Snapshot | null, w: Words): void {
    const key = snap ? JSON.stringify([w.lang, snap.players, snap.actor, snap.current, snap.finished, snap.me.seat]) : '';
    this.keyed.set(key, () => (snap ? snap.players.map((p) => row(p, snap, w)) : []));
  }
}
