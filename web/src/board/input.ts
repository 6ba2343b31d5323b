// Fingers, mouse and keys on the board: one pointer pans, two pinch, the wheel zooms at the
// cursor; a tap (up within TAP_PX and TAP_MS of down, no pan) names the region under it.
// Keys: arrows move between regions, Enter/Space act, + and - zoom, 0 shows the whole map.

import type { Point } from '../protocol';
import type { Direction } from './geometry';
import { clientToUser, pinch, unitsPerPixel, type Size, type View } from './viewport';

export const TAP_PX = 6;
export const TAP_MS = 300;
/** A mouse or pen press may be slower and still be a click (a steady hand, a careful one). */
export const CLICK_MS = 800;

export interface PointerHost {
  svg: SVGSVGElement;
  size: Size;
  view(): View;
  setView(v: View): void;
  zoomAt(u: Point, factor: number): void;
  tap(region: number | null): void;
}

interface Down {
  x: number;
  y: number;
  lastX: number;
  lastY: number;
}

/** The region an element belongs to (its outline, tag, piece or badge). */
export function regionOf(target: EventTarget | null): number | null {
  const el = target instanceof Element ? target.closest('[data-region],[data-for]') : null;
  const id = el?.getAttribute('data-region') ?? el?.getAttribute('data-for');
  return id == null ? null : Number(id);
}

/** Is this a tap: little movement, quickly, one pointer all along? */
export function isTap(moved: number, ms: number, multi: boolean, pointer = 'touch'): boolean {
  return !multi && moved <= TAP_PX && ms <= (pointer === 'touch' ? TAP_MS : CLICK_MS);
}

export function bindPointers(h: PointerHost): () => void {
  const el = h.svg;
  const downs = new Map<number, Down>();
  let startRegion: number | null = null;
  let startTime = 0;
  let moved = 0;
  let multi = false;
  let pinchStart: { view: View; a: Point; b: Point } | null = null;

  const user = (x: number, y: number): Point =>
    clientToUser(el.getBoundingClientRect(), h.size, x, y);

  const beginPinch = (): void => {
    const [p, q] = [...downs.values()];
    if (!p || !q) return;
    pinchStart = { view: h.view(), a: user(p.lastX, p.lastY), b: user(q.lastX, q.lastY) };
  };

  const onDown = (e: PointerEvent): void => {
    if (e.pointerType === 'mouse' && e.button !== 0) return;
    try {
      el.setPointerCapture(e.pointerId);
    } catch {
      // a synthetic pointer cannot be captured
    }
    downs.set(e.pointerId, { x: e.clientX, y: e.clientY, lastX: e.clientX, lastY: e.clientY });
    if (downs.size === 1) {
      startRegion = regionOf(e.target);
      startTime = e.timeStamp;
      moved = 0;
      multi = false;
    } else {
      multi = true;
      beginPinch();
    }
  };

  const onMove = (e: PointerEvent): void => {
    const d = downs.get(e.pointerId);
    if (!d) return;
    const dx = e.clientX - d.lastX;
    const dy = e.clientY - d.lastY;
    d.lastX = e.clientX;
    d.lastY = e.clientY;
    if (downs.size === 1) {
      moved = Math.max(moved, Math.hypot(e.clientX - d.x, e.clientY - d.y));
      if (moved > TAP_PX || multi) {
        const k = unitsPerPixel(el.getBoundingClientRect(), h.size);
        const v = h.view();
        h.setView({ s: v.s, x: v.x + dx * k, y: v.y + dy * k });
      }
    } else if (downs.size === 2 && pinchStart) {
      const [p, q] = [...downs.values()];
      if (!p || !q) return;
      h.setView(pinch(pinchStart.view, pinchStart.a, pinchStart.b, user(p.lastX, p.lastY),
        user(q.lastX, q.lastY), h.size));
    }
  };

  const onUp = (e: PointerEvent): void => {
    if (!downs.delete(e.pointerId)) return;
    if (downs.size === 1) beginPinch(); // a finger stays: it pans from here
    if (downs.size === 0 && e.type === 'pointerup'
      && isTap(moved, e.timeStamp - startTime, multi, e.pointerType)) {
      h.tap(startRegion);
    }
    if (downs.size < 2) pinchStart = null;
  };

  const onWheel = (e: WheelEvent): void => {
    e.preventDefault();
    const perLine = e.deltaMode === 1 ? 0.05 : 0.0015;
    h.zoomAt(user(e.clientX, e.clientY), Math.exp(-e.deltaY * perLine));
  };

  el.addEventListener('pointerdown', onDown);
  el.addEventListener('pointermove', onMove);
  el.addEventListener('pointerup', onUp);
  el.addEventListener('pointercancel', onUp);
  el.addEventListener('wheel', onWheel, { passive: false });
  return () => {
    el.removeEventListener('pointerdown', onDown);
    el.removeEventListener('pointermove', onMove);
    el.removeEventListener('pointerup', onUp);
    el.removeEventListener('pointercancel', onUp);
    el.removeEventListener('wheel', onWheel);
  };
}

export type KeyCommand =
  | { kind: 'step'; dir: Direction }
  | { kind: 'act' }
  | { kind: 'zoom'; factor: number }
  | { kind: 'reset' }
  | { kind: 'escape' };

/** What a key on the board means (null: not the board's key). */
export function keyCommand(key: string): KeyCommand | null {
  switch (key) {
    case 'ArrowLeft': return { kind: 'step', dir: 'left' };
    case 'ArrowRight': return { kind: 'step', dir: 'right' };
    case 'ArrowUp': return { kind: 'step', dir: 'up' };
    case 'ArrowDown': return { kind: 'step', dir: 'down' };
    case 'Enter': case ' ': return { kind: 'act' };
    case '+': case '=': return { kind: 'zoom', factor: 1.5 };
    case '-': case '_': return { kind: 'zoom', factor: 1 / 1.5 };
    case '0': return { kind: 'reset' };
    case 'Escape': return { kind: 'escape' };
    default: return null;
  }
}
