// Pure geometry of the board: where a sprite goes (as render/mapview.py places it) and which
// region an arrow key leads to.

import type { Point, RegionGeo } from '../protocol';

/** The parchment frame around the map (render/static.py MARGIN), layer pixels. */
export const MARGIN = 14;

/** Top-left corner of a `w`x`h` sprite centred at (x, y), nudged to stay on the map, as
 * mapview._placed does. */
export function placeSprite(x: number, y: number, w: number, h: number,
  width: number, height: number): Point {
  const hw = w / 2;
  const hh = h / 2;
  const cx = Math.min(Math.max(x, MARGIN + hw), width - MARGIN - hw);
  const cy = Math.min(Math.max(y, MARGIN + hh), height - MARGIN - hh);
  return [Math.trunc(cx - w / 2), Math.trunc(cy - h / 2)];
}

/** Where a region "is" for keyboard moves: its number's spot. */
export function centre(r: RegionGeo): Point {
  return r.label;
}

export type Direction = 'left' | 'right' | 'up' | 'down';

const VECTORS: Record<Direction, Point> = {
  left: [-1, 0], right: [1, 0], up: [0, -1], down: [0, 1],
};

/** How far off `dir` the step a->b is: lower is better; null when it points away. */
function score(a: Point, b: Point, dir: Direction, least: number): number | null {
  const [dx, dy] = [b[0] - a[0], b[1] - a[1]];
  const dist = Math.hypot(dx, dy);
  if (dist === 0) return null;
  const [ux, uy] = VECTORS[dir];
  const cos = (dx * ux + dy * uy) / dist;
  if (cos < least) return null;
  return dist / (cos * cos);
}

/** The region an arrow key moves to from `from`: the neighbour most in that direction; if no
 * neighbour lies that way, the nearest region that does; null at the map's edge. */
export function step(regions: ReadonlyMap<number, RegionGeo>, from: number,
  dir: Direction): number | null {
  const here = regions.get(from);
  if (!here) return null;
  const best = (ids: Iterable<number>, least: number): number | null => {
    let found: number | null = null;
    let low = Infinity;
    for (const id of ids) {
      const r = regions.get(id);
      if (!r || id === from) continue;
      const s = score(centre(here), centre(r), dir, least);
      if (s !== null && (s < low || (s === low && found !== null && id < found))) {
        low = s;
        found = id;
      }
    }
    return found;
  };
  return best(here.neighbours, 0.3) ?? best(regions.keys(), 0.5);
}
