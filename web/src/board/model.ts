// What each region should show, worked out from the snapshot and the viewer's state (pure):
// the drawing compares these per region and rewrites only the regions whose keys changed.

import type { Words } from '../i18n';
import { badgeCost, movesOf, moveMax, regionChoices, targetsByRegion } from '../options';
import type { BoardData, Player, RegionState, Snapshot } from '../protocol';
import type { UI } from '../store';
import { regionLabel } from './a11y';

export type Ring = 'target' | 'selected' | 'dest' | 'own' | 'hint' | null;

export interface RegionShow {
  id: number;
  /** Tag and pieces: equal keys, equal drawing. */
  tokens: string;
  reg: RegionState | undefined;
  colour: string | null;
  /** The tag's words: the race's abbreviation, or "Tribe". */
  tag: string;
  ring: Ring;
  /** The cost badge: a number, "die" (a die decides), "+N" (move up to N here), or null. */
  badge: string | null;
  pending: boolean;
  label: string;
}

export const NO_COLOUR = '#808080';

export function playersByName(snap: Snapshot | null): Map<string, Player> {
  return new Map((snap?.players ?? []).map((p) => [p.name, p]));
}

function tokensKey(reg: RegionState | undefined, colour: string | null, tag: string): string {
  if (!reg) return '';
  return JSON.stringify([reg.owner ?? null, reg.race ?? null, reg.tokens ?? 0, !!reg.decline,
    !!reg.lost_tribe, reg.pieces ?? [], colour, tag]);
}

export function showRegions(board: BoardData, snap: Snapshot | null, ui: UI,
  w: Words): RegionShow[] {
  const players = playersByName(snap);
  const moves = movesOf(snap);
  const targets = targetsByRegion(moves);
  const from = ui.moveFrom;
  const pendingRegion = ui.pending?.region ?? null;
  const tribe = w.t('web.tribe');
  const conquering = (moves?.targets.length ?? 0) > 0;
  return board.regions.map((geo) => {
    const reg = snap?.regions[String(geo.id)];
    const owned = !!reg?.owner && (reg.tokens ?? 0) > 0;
    const colour = owned ? players.get(reg?.owner ?? '')?.colour ?? NO_COLOUR : null;
    const tag = reg?.lost_tribe ? tribe : owned ? w.abbr(reg?.race) : '';
    const here = targets.get(geo.id) ?? [];
    const moveHere = from !== null && from !== geo.id ? moveMax(moves, from, geo.id) : 0;
    const own = from === null && regionChoices(moves, geo.id).some((c) => !c.word.startsWith('web.verb.'));
    let ring: Ring = null;
    let badge: string | null = null;
    if (ui.selected === geo.id || from === geo.id) ring = 'selected';
    else if (moveHere > 0) {
      ring = 'dest';
      badge = `+${moveHere}`;
    } else if (from === null && here.length > 0) {
      ring = 'target';
      const cost = badgeCost(here);
      badge = cost === null ? 'die' : String(cost);
    } else if (own && !conquering) {
      ring = 'own'; // redeployment, survivors: her regions with something to do
    }
    if (ui.hintAt === geo.id && ring !== 'selected') ring = 'hint'; // the coach's suggestion
    const doing = moves ? { targets: from === null ? here : [], own, moveHere } : null;
    return {
      id: geo.id, reg, colour, tag, ring, badge,
      tokens: tokensKey(reg, colour, tag),
      pending: pendingRegion === geo.id,
      label: regionLabel(geo, reg, players, w, doing),
    };
  });
}
