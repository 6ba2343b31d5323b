// Token tags and pieces in SVG, drawn as render/sprites.py draws them for the pictures:
// a rounded tag "3 Orc" in the owner's colour (in decline: grey, hatched in the owner's colour,
// double outline), lost tribes in brown labelled "Tribe", pieces on their discs.

import type { Point } from '../protocol';
import { placeSprite } from './geometry';
import { svg } from './svg';

export const INK = '#30241a';
export const DECLINE_FILL = '#c4c4c4';
export const LOST_TRIBE = '#806240';
const TAG_H = 44;
const COUNT_SIZE = 30;
const LABEL_SIZE = 22;
const LABEL_LEAST = 14;
export const PIECE = 38;
/** Pieces in the pictures' order (render/sprites.py PIECES). */
export const PIECE_ORDER = ['troll_lair', 'fortress', 'encampment', 'hero', 'dragon', 'hole'];
/** The English abbreviations: the widest is every label's room, so no language makes a tag
 * wider than the ones the layout was made for (as sprites.label_room). */
const ENGLISH_ABBR = ['Ama', 'Dwa', 'Elf', 'Gho', 'Gia', 'Hal', 'Hum', 'Orc', 'Rat', 'Ske',
  'Sor', 'Tri', 'Tro', 'Wiz'];

export const COUNT_FONT = '"Noto Sans", "DejaVu Sans", "SW Thai", Verdana, sans-serif';
export const LABEL_FONT = '"DejaVu Sans Condensed", "Liberation Sans Narrow", "Arial Narrow", ' +
  '"Roboto Condensed", "SW Thai", "Noto Sans Thai", sans-serif-condensed, sans-serif';

let ctx: CanvasRenderingContext2D | null | undefined;
let ctxFont = '';
const widths = new Map<string, number>();

/** Drawn width of `text` in a bold font (a canvas measures; cached). */
export function measure(text: string, size: number, family: string): number {
  const key = `${size}|${family}|${text}`;
  const known = widths.get(key);
  if (known !== undefined) return known;
  if (ctx === undefined) ctx = document.createElement('canvas').getContext('2d');
  let w = text.length * size * 0.6;
  if (ctx) {
    const font = `700 ${size}px ${family}`;
    if (font !== ctxFont) ctx.font = ctxFont = font; // parsing a font string is not free
    w = ctx.measureText(text).width;
  }
  widths.set(key, w);
  return w;
}

/** Forget measured widths (a web font arrived: tags are measured again). */
export function forgetWidths(): void {
  widths.clear();
}

/** Black or white, whichever reads better on `hex` (theme.text_on). */
export function textOn(hex: string): string {
  const n = parseInt(hex.slice(1), 16);
  const [r, g, b] = [(n >> 16) & 255, (n >> 8) & 255, n & 255];
  return 0.299 * r + 0.587 * g + 0.114 * b > 140 ? '#14100c' : '#ffffff';
}

function labelSize(label: string): number {
  const room = Math.max(...ENGLISH_ABBR.map((a) => measure(a, LABEL_SIZE, LABEL_FONT)));
  const w = measure(label, LABEL_SIZE, LABEL_FONT);
  if (w <= room) return LABEL_SIZE;
  return Math.max(LABEL_LEAST, Math.floor((LABEL_SIZE * room) / w));
}

/** The hatching of declined tags in one owner colour (made once per colour). */
export function hatchId(defs: SVGDefsElement, colour: string): string {
  const id = `hatch-${colour.replace('#', '')}`;
  if (!defs.querySelector(`#${id}`)) {
    const w = 7.071;
    const p = svg('pattern', { id, patternUnits: 'userSpaceOnUse', width: w, height: 10,
      patternTransform: 'rotate(45)' });
    p.append(svg('rect', { width: w, height: 10, fill: DECLINE_FILL }),
      svg('line', { x1: w / 2, y1: 0, x2: w / 2, y2: 10, stroke: colour, 'stroke-opacity': 0.59,
        'stroke-width': 3 }));
    defs.append(p);
  }
  return id;
}

export interface TagSpec {
  count: number;
  label: string;
  colour: string;
  decline: boolean;
}

/** A tag centred at `at` (kept on the map), as sprites.marker draws it. */
export function tag(spec: TagSpec, at: Point, map: { width: number; height: number },
  defs: SVGDefsElement): SVGGElement {
  const cnt = spec.count ? String(spec.count) : '';
  const wc = cnt ? measure(cnt, COUNT_SIZE, COUNT_FONT) : 0;
  const ls = labelSize(spec.label);
  const wl = measure(spec.label, ls, LABEL_FONT);
  const w = Math.trunc(wc + wl + (cnt ? 30 : 22));
  const h = TAG_H;
  const [x, y] = placeSprite(at[0], at[1], w, h, map.width, map.height);
  const g = svg('g', { class: 'tag', transform: `translate(${x} ${y})` });
  const body = spec.decline ? DECLINE_FILL : spec.colour;
  if (spec.decline) {
    g.append(
      svg('rect', { x: 1, y: 1, width: w - 2, height: h - 2, rx: 12,
        fill: `url(#${hatchId(defs, spec.colour)})` }),
      svg('rect', { x: 3, y: 3, width: w - 6, height: h - 6, rx: 10, fill: 'none',
        stroke: spec.colour, 'stroke-width': 4 }),
      svg('rect', { x: 5.5, y: 5.5, width: w - 11, height: h - 11, rx: 7.5, fill: 'none',
        stroke: INK, 'stroke-width': 1 }),
      svg('rect', { x: 1, y: 1, width: w - 2, height: h - 2, rx: 12, fill: 'none', stroke: INK,
        'stroke-width': 2 }));
  } else {
    g.append(svg('rect', { x: 2.5, y: 2.5, width: w - 5, height: h - 5, rx: 10.5, fill: body,
      stroke: INK, 'stroke-width': 3 }));
  }
  const ink = textOn(body);
  const halo: Record<string, string | number> = spec.decline ? { stroke: ink === '#ffffff' ? INK : '#ffffff', 'stroke-width': 2,
    'paint-order': 'stroke' } : {};
  let tx = 11;
  if (cnt) {
    g.append(svg('text', { x: tx, y: h / 2 + 1, class: 'tag-count', fill: ink, ...halo }, cnt));
    tx += Math.trunc(wc + 6);
  }
  g.append(svg('text', { x: tx, y: h / 2 + 2, class: 'tag-label', fill: ink,
    'font-size': ls }, spec.label));
  return g;
}

/** One piece, with a count badge at its lower right when there are several (sprites.piece). */
export function piece(kind: string, count: number, at: Point,
  map: { width: number; height: number }, base: string): SVGGElement {
  const w = PIECE + (count > 1 ? 12 : 0);
  const [x, y] = placeSprite(at[0], at[1], w, PIECE, map.width, map.height);
  const g = svg('g', { class: 'piece', transform: `translate(${x} ${y})` });
  g.append(svg('image', { href: `${base}${kind}.png`, width: PIECE, height: PIECE }));
  if (count > 1) {
    g.append(svg('circle', { cx: w - 12.5, cy: PIECE - 12.5, r: 11, fill: INK, stroke: '#fff',
      'stroke-width': 2 }),
    svg('text', { x: w - 12.5, y: PIECE - 11.5, class: 'piece-count' }, String(count)));
  }
  return g;
}

/** Pieces of a region in the pictures' order, each with its count. */
export function pieceCounts(pieces: readonly string[]): [string, number][] {
  const counts = new Map<string, number>();
  for (const p of pieces) counts.set(p, (counts.get(p) ?? 0) + 1);
  const rank = (k: string): number => {
    const i = PIECE_ORDER.indexOf(k);
    return i < 0 ? PIECE_ORDER.length : i;
  };
  return [...counts].sort((a, b) => rank(a[0]) - rank(b[0]));
}
