// What a screen reader says for a region: the map's alt sentence, region by region.
// "Region 12, Hills, Bob's Trolls, 3 tokens, conquer for 3 tokens".

import { capital, type Words } from '../i18n';
import { targetChoice } from '../options';
import type { Player, RegionGeo, RegionState, Target } from '../protocol';

/** Who holds a region, in words ("Bob's Trolls", "lost tribe", "empty"). */
export function holder(reg: RegionState | undefined, players: ReadonlyMap<string, Player>,
  w: Words): string {
  if (reg?.lost_tribe) return w.t('web.holder.tribe');
  if (reg?.owner && (reg.tokens ?? 0) > 0) {
    const who = players.get(reg.owner)?.display ?? reg.owner;
    return w.t(reg.decline ? 'web.holder.decline' : 'web.holder', { player: who, race: w.race(reg.race) });
  }
  return w.t('web.holder.empty');
}

/** Pieces as words, a count where there are several ("Troll Lair, encampment x2"). */
export function pieceWords(pieces: readonly string[] | undefined, w: Words): string {
  const counts = new Map<string, number>();
  for (const p of pieces ?? []) counts.set(p, (counts.get(p) ?? 0) + 1);
  return w.list([...counts].map(([p, n]) => (n > 1 ? `${w.piece(p)} \u00d7${n}` : w.piece(p))));
}

/** What a tap on the region would do, as a phrase (empty: nothing). */
export interface Doing {
  targets: Target[];
  /** One of her regions with something to choose (deploy, move, place, abandon). */
  own: boolean;
  /** A destination of "move from": the most tokens that may come. */
  moveHere: number;
}

export function doingWords(d: Doing, w: Words): string[] {
  const out: string[] = [];
  for (const t of d.targets) {
    const c = targetChoice(t);
    out.push(c.n !== undefined ? w.n(c.word, c.n) : w.t(c.word));
  }
  if (d.moveHere > 0) out.push(w.n('web.a11y.move_here', d.moveHere));
  else if (d.own) out.push(w.t('web.a11y.own'));
  return out;
}

export function regionLabel(geo: RegionGeo, reg: RegionState | undefined,
  players: ReadonlyMap<string, Player>, w: Words, doing: Doing | null): string {
  const parts = [w.t('web.region', { id: geo.id }), capital(w.terrain(geo.terrain), w.lang)];
  parts.push(holder(reg, players, w));
  if (reg?.owner && (reg.tokens ?? 0) > 0) parts.push(w.n('web.tokens', reg.tokens ?? 0));
  const pieces = pieceWords(reg?.pieces, w);
  if (pieces) parts.push(pieces);
  for (const s of geo.symbols) if (s !== 'lost_tribe') parts.push(w.t(`web.symbol.${s}`));
  if (doing) parts.push(...doingWords(doing, w));
  return parts.join(', ');
}
