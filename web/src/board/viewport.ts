// Zoom and pan as pure maths. The <svg> shows the whole map (viewBox = layer pixels, "meet");
// a view (s, x, y) maps a map point m to the user point m*s + (x, y) and is applied as one
// transform on the viewport group. At s = 1 the whole map shows.

import type { Point } from '../protocol';

export interface View {
  s: number;
  x: number;
  y: number;
}

export interface Size {
  width: number;
  height: number;
}

export interface Rect {
  left: number;
  top: number;
  width: number;
  height: number;
}

export const MIN_SCALE = 1;
export const MAX_SCALE = 6;

export const FIT: View = { s: 1, x: 0, y: 0 };

/** Scale within bounds, and the map always covering the frame (no empty margins). */
export function clamp(v: View, size: Size): View {
  const s = Math.min(MAX_SCALE, Math.max(MIN_SCALE, v.s));
  const x = Math.min(0, Math.max(size.width - s * size.width, v.x));
  const y = Math.min(0, Math.max(size.height - s * size.height, v.y));
  return { s, x, y };
}

/** Zoom by `factor` keeping the user point (ux, uy) where it is (the wheel, +/-). */
export function zoomAt(v: View, ux: number, uy: number, factor: number, size: Size): View {
  const s = Math.min(MAX_SCALE, Math.max(MIN_SCALE, v.s * factor));
  const mx = (ux - v.x) / v.s;
  const my = (uy - v.y) / v.s;
  return clamp({ s, x: ux - s * mx, y: uy - s * my }, size);
}

export function panBy(v: View, dx: number, dy: number, size: Size): View {
  return clamp({ s: v.s, x: v.x + dx, y: v.y + dy }, size);
}

function mid(a: Point, b: Point): Point {
  return [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
}

/** Two fingers: from where they went down (a0, b0, at view `start`) to where they are now
 * (a1, b1): the map point under their midpoint stays under it, scaled by their spread. */
export function pinch(start: View, a0: Point, b0: Point, a1: Point, b1: Point,
  size: Size): View {
  const d0 = Math.hypot(b0[0] - a0[0], b0[1] - a0[1]);
  const d1 = Math.hypot(b1[0] - a1[0], b1[1] - a1[1]);
  const factor = d0 > 0 ? d1 / d0 : 1;
  const m0 = mid(a0, b0);
  const m1 = mid(a1, b1);
  const mx = (m0[0] - start.x) / start.s;
  const my = (m0[1] - start.y) / start.s;
  const s = Math.min(MAX_SCALE, Math.max(MIN_SCALE, start.s * factor));
  return clamp({ s, x: m1[0] - s * mx, y: m1[1] - s * my }, size);
}

/** A client (CSS pixel) point in user units of an svg laid out in `rect` showing `size`
 * with preserveAspectRatio "xMidYMid meet". */
export function clientToUser(rect: Rect, size: Size, cx: number, cy: number): Point {
  const k = Math.min(rect.width / size.width, rect.height / size.height) || 1;
  const ox = rect.left + (rect.width - size.width * k) / 2;
  const oy = rect.top + (rect.height - size.height * k) / 2;
  return [(cx - ox) / k, (cy - oy) / k];
}

/** User units per CSS pixel (to turn a drag into a pan). */
export function unitsPerPixel(rect: Rect, size: Size): number {
  const k = Math.min(rect.width / size.width, rect.height / size.height);
  return k > 0 ? 1 / k : 1;
}

/** The map point p brought into view (with `pad` user units around it), scale kept. */
export function reveal(v: View, p: Point, size: Size, pad = 60): View {
  const ux = p[0] * v.s + v.x;
  const uy = p[1] * v.s + v.y;
  let { x, y } = v;
  if (ux < pad) x += pad - ux;
  else if (ux > size.width - pad) x -= ux - (size.width - pad);
  if (uy < pad) y += pad - uy;
  else if (uy > size.height - pad) y -= uy - (size.height - pad);
  return clamp({ s: v.s, x, y }, size);
}

function num(n: number): string {
  return String(Math.round(n * 1000) / 1000);
}

export function transform(v: View): string {
  return `translate(${num(v.x)} ${num(v.y)}) scale(${num(v.s)})`;
}
