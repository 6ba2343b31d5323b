// What the viewer may do at a region, read from `moves` alone (the page never re-implements a
// rule): the targets there, and on her own regions deploy / move / abandon / place.

import type { Act, Moves, Snapshot, Target } from './protocol';

/** Something to send: an action, an undo or a hint request. `region`: the one it touches. */
export type Out =
  | { kind: 'act'; a: Act; region?: number }
  | { kind: 'undo' }
  | { kind: 'hint' };

/** One button of a region's sheet or chooser. `choice` is its data-choice hook. */
export interface Choice {
  choice: string;
  /** The word key and its values; `n` picks a counted phrase. */
  word: string;
  n?: number;
  params?: Record<string, string | number>;
  count?: number;
  out?: Out;
  /** Enter "move from here": the next tap names the destination. */
  moveFrom?: number;
}

export function movesOf(snap: Snapshot | null): Moves | null {
  return snap && snap.me.acts && snap.moves ? snap.moves : null;
}

/** Targets by region, in the server's order. */
export function targetsByRegion(moves: Moves | null): Map<number, Target[]> {
  const out = new Map<number, Target[]>();
  for (const t of moves?.targets ?? []) {
    const list = out.get(t.region);
    if (list) list.push(t);
    else out.set(t.region, [t]);
  }
  return out;
}

/** The cheapest known cost at a region (null: a die decides), for its badge. */
export function badgeCost(targets: Target[]): number | null {
  let best: number | null = null;
  for (const t of targets) {
    if (t.cost !== null && (best === null || t.cost < best)) best = t.cost;
  }
  return best;
}

/** A target's button: conquests say their cost; where a die decides, it says so. */
export function targetChoice(t: Target): Choice {
  const counted = t.verb === 'conquer' || t.verb === 'conquer_decline';
  const word = counted && t.cost === null ? 'web.verb.reinforce' : `web.verb.${t.verb}`;
  const c: Choice = { choice: t.verb, word, out: { kind: 'act', a: t.a, region: t.region } };
  if (counted && t.cost !== null) c.n = t.cost;
  return c;
}

/** Everything a tap on `region` offers, targets first. */
export function regionChoices(moves: Moves | null, region: number): Choice[] {
  if (!moves) return [];
  const out: Choice[] = [];
  for (const t of moves.targets) if (t.region === region) out.push(targetChoice(t));
  const key = String(region);
  const deploy = moves.deploy[key] ?? 0;
  if (deploy >= 1) {
    const a = (count: number): Out => ({ kind: 'act', a: { do: 'deploy', region, count }, region });
    out.push({ choice: 'deploy', word: 'web.deploy_one', count: 1, out: a(1) });
    if (deploy > 1) {
      out.push({ choice: 'deploy', word: 'web.deploy_all', n: deploy, count: deploy,
        out: a(deploy) });
    }
  }
  const dests = moves.move[key];
  if (dests && Object.keys(dests).length > 0) {
    out.push({ choice: 'move', word: 'web.move_from', moveFrom: region });
  }
  for (const p of moves.place) {
    if (p.region === region) {
      out.push({ choice: p.piece, word: 'web.place', params: { piece: p.piece },
        out: { kind: 'act', a: p.a, region } });
    }
  }
  if (moves.abandon.includes(region)) {
    out.push({ choice: 'abandon', word: 'web.abandon',
      out: { kind: 'act', a: { do: 'abandon', region }, region } });
  }
  return out;
}

/** The most tokens that may move from `from` to `to` (0: none). */
export function moveMax(moves: Moves | null, from: number, to: number): number {
  return moves?.move[String(from)]?.[String(to)] ?? 0;
}

/** Counts 1..max for moving tokens between two of her regions. */
export function moveChoices(from: number, to: number, max: number): Choice[] {
  const out: Choice[] = [];
  for (let count = 1; count <= max; count++) {
    out.push({ choice: String(count), word: 'web.tokens', n: count, count,
      out: { kind: 'act', a: { do: 'move', from, to, count }, region: to } });
  }
  return out;
}

/** Regions the viewer's tap does something on (for highlighting and labels). */
export function actionable(moves: Moves | null): Set<number> {
  const out = new Set<number>();
  if (!moves) return out;
  for (const t of moves.targets) out.add(t.region);
  for (const r of Object.keys(moves.deploy)) out.add(Number(r));
  for (const r of Object.keys(moves.move)) out.add(Number(r));
  for (const r of moves.abandon) out.add(r);
  for (const p of moves.place) out.add(p.region);
  return out;
}
