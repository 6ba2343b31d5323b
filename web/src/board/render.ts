// The board in SVG: the map's layer as background, each region's outline (focusable, named),
// token tags and pieces where the pictures put them, rings and cost badges on what the viewer
// can tap. Each region remembers what it shows; `draw` rewrites only regions whose keys changed.

import type { BoardData, Point, RegionGeo } from '../protocol';
import { placeSprite } from './geometry';
import type { RegionShow, Ring } from './model';
import { svg } from './svg';
import { INK, LOST_TRIBE, piece, pieceCounts, tag } from './tag';

interface Drawn {
  geo: RegionGeo;
  area: SVGGElement;
  path: SVGPathElement;
  tokens: SVGGElement;
  badge: SVGGElement;
  ring: SVGGElement | null;
  tokensKey: string;
  stateKey: string;
  label: string;
}

export interface Drawing {
  svg: SVGSVGElement;
  viewport: SVGGElement;
  regions: Map<number, Drawn>;
}

/** The static structure: layer, one group per region, the tokens and badge layers. */
export function build(board: BoardData, svgEl: SVGSVGElement): Drawing {
  svgEl.setAttribute('viewBox', `0 0 ${board.width} ${board.height}`);
  svgEl.setAttribute('preserveAspectRatio', 'xMidYMid meet');
  const defs = svg('defs');
  const viewport = svg('g', { class: 'viewport' });
  const image = svg('image', { href: board.layer, width: board.width, height: board.height,
    class: 'layer' });
  const areas = svg('g', { class: 'areas' });
  const tokens = svg('g', { class: 'tokens' });
  const badges = svg('g', { class: 'badges' });
  const regions = new Map<number, Drawn>();
  for (const geo of board.regions) {
    const area = svg('g', { 'data-region': geo.id, role: 'button', tabindex: -1 });
    const path = svg('path', { d: geo.path, class: 'area', 'fill-rule': 'evenodd' });
    area.append(path);
    areas.append(area);
    const tok = svg('g', { 'data-for': geo.id });
    tokens.append(tok);
    const badge = svg('g', { 'data-for': geo.id, class: 'badge' });
    badges.append(badge);
    regions.set(geo.id, { geo, area, path, tokens: tok, badge, ring: null, tokensKey: '',
      stateKey: '', label: '' });
  }
  viewport.append(image, areas, tokens, badges);
  svgEl.replaceChildren(defs, viewport);
  return { svg: svgEl, viewport, regions };
}

function defsOf(d: Drawing): SVGDefsElement {
  return d.svg.querySelector('defs') as SVGDefsElement;
}

function drawTokens(d: Drawing, r: Drawn, show: RegionShow, size: BoardData,
  spriteBase: string): void {
  const reg = show.reg;
  const out: SVGElement[] = [];
  if (reg?.lost_tribe) {
    out.push(tag({ count: 0, label: show.tag, colour: LOST_TRIBE, decline: false },
      r.geo.marker, size, defsOf(d)));
  } else if (reg?.owner && (reg.tokens ?? 0) > 0 && show.colour) {
    out.push(tag({ count: reg.tokens ?? 0, label: show.tag, colour: show.colour,
      decline: !!reg.decline }, r.geo.marker, size, defsOf(d)));
  }
  pieceCounts(reg?.pieces ?? []).forEach(([kind, n], i) => {
    const at: Point = r.geo.pieces[i] ?? [r.geo.marker[0] + 40 * i, r.geo.marker[1]];
    out.push(piece(kind, n, at, size, spriteBase));
  });
  r.tokens.replaceChildren(...out);
}

/** The ring inside a region's border, as the pictures highlight (dark edge, light band). */
function ringFor(d: Drawing, r: Drawn, ring: Ring): SVGGElement | null {
  if (ring === null) return null;
  const id = `clip-${r.geo.id}`;
  const defs = defsOf(d);
  if (!defs.querySelector(`#${id}`)) {
    const clip = svg('clipPath', { id });
    clip.append(svg('path', { d: r.geo.path, 'clip-rule': 'evenodd' }));
    defs.append(clip);
  }
  const g = svg('g', { class: `ring ring-${ring}`, 'clip-path': `url(#${id})` });
  g.append(svg('path', { d: r.geo.path, class: 'ring-band' }),
    svg('path', { d: r.geo.path, class: 'ring-edge' }));
  return g;
}

function drawBadge(r: Drawn, show: RegionShow, size: BoardData): void {
  const b = show.badge;
  if (b === null) {
    r.badge.replaceChildren();
    return;
  }
  const hasTag = !!show.tag;
  const m = r.geo.marker;
  const [x, y] = placeSprite(m[0], hasTag ? m[1] - 40 : m[1], 40, 40, size.width, size.height);
  const g = svg('g', { transform: `translate(${x + 20} ${y + 20})`, class: `badge-${show.ring}` });
  if (b === 'die') {
    g.append(svg('rect', { x: -15, y: -15, width: 30, height: 30, rx: 6, class: 'badge-body' }));
    for (const [px, py] of [[-7, -7], [0, 0], [7, 7]] as const) {
      g.append(svg('circle', { cx: px, cy: py, r: 3.2, fill: INK }));
    }
  } else {
    const w = Math.max(34, 14 + 13 * b.length);
    g.append(svg('rect', { x: -w / 2, y: -17, width: w, height: 34, rx: 17, class: 'badge-body' }),
      svg('text', { x: 0, y: 1, class: 'badge-text' }, b));
  }
  r.badge.replaceChildren(g);
}

/** Bring the drawing to `shows`, touching only what changed. Returns the regions rewritten. */
export function draw(d: Drawing, shows: RegionShow[], size: BoardData,
  spriteBase: string): number {
  let touched = 0;
  for (const show of shows) {
    const r = d.regions.get(show.id);
    if (!r) continue;
    let changed = false;
    if (show.tokens !== r.tokensKey) {
      drawTokens(d, r, show, size, spriteBase);
      r.tokensKey = show.tokens;
      changed = true;
    }
    const stateKey = `${show.ring}|${show.badge}|${show.pending}|${show.tag ? 1 : 0}`;
    if (stateKey !== r.stateKey) {
      r.ring?.remove();
      r.ring = ringFor(d, r, show.ring);
      if (r.ring) r.area.append(r.ring);
      r.area.classList.toggle('selectable', show.ring === 'target' || show.ring === 'dest'
        || show.ring === 'own' || show.ring === 'hint');
      r.area.classList.toggle('selected', show.ring === 'selected');
      r.area.classList.toggle('pending', show.pending);
      drawBadge(r, show, size);
      r.stateKey = stateKey;
      changed = true;
    }
    if (show.label !== r.label) {
      r.area.setAttribute('aria-label', show.label);
      r.label = show.label;
      changed = true;
    }
    if (changed) touched += 1;
  }
  return touched;
}

/** Forget what every region shows, so the next draw rewrites all (fonts arrived, language). */
export function invalidate(d: Drawing): void {
  for (const r of d.regions.values()) r.tokensKey = r.stateKey = r.label = '';
}

let flip = false;

/** Flash the regions the newest action changed. Each flash names the other of two equal
 * animations, which restarts it without forcing a layout. */
export function flash(d: Drawing, ids: readonly number[]): void {
  const changed = new Set(ids);
  flip = !flip;
  for (const [id, r] of d.regions) {
    const on = changed.has(id);
    if (on) r.area.dataset.flash = flip ? 'a' : 'b';
    if (on || r.area.classList.contains('changed')) r.area.classList.toggle('changed', on);
  }
}
