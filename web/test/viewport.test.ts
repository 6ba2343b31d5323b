import { describe, expect, it } from 'vitest';
import { clamp, clientToUser, FIT, MAX_SCALE, pinch, reveal, transform, unitsPerPixel, zoomAt } from '../src/board/viewport';

const size = { width: 1000, height: 800 };

describe('viewport', () => {
  it('never lets the map leave the frame nor zoom out past the whole map', () => {
    expect(clamp({ s: 0.5, x: 100, y: 100 }, size)).toEqual(FIT);
    expect(clamp({ s: 2, x: -5000, y: 50 }, size)).toEqual({ s: 2, x: -1000, y: 0 });
    expect(clamp({ s: 99, x: 0, y: 0 }, size).s).toBe(MAX_SCALE);
  });
  it('zooms at a point, keeping the map point under it', () => {
    const v = zoomAt(FIT, 300, 200, 2, size);
    expect(v.s).toBe(2);
    // the map point (300, 200) is still at user (300, 200)
    expect(300 * v.s + v.x).toBeCloseTo(300);
    expect(200 * v.s + v.y).toBeCloseTo(200);
    const back = zoomAt(v, 300, 200, 0.5, size);
    expect(back).toEqual(FIT);
  });
  it('pinches: spread scales, the midpoint follows the fingers', () => {
    const v = pinch(FIT, [400, 400], [500, 400], [350, 400], [550, 400], size);
    expect(v.s).toBeCloseTo(2);
    expect(450 * v.s + v.x).toBeCloseTo(450);
    const moved = pinch(FIT, [400, 400], [500, 400], [340, 420], [540, 420], size);
    expect(450 * moved.s + moved.x).toBeCloseTo(440);
    expect(400 * moved.s + moved.y).toBeCloseTo(420);
  });
  it('maps client pixels to user units for a letterboxed svg', () => {
    // a 500x800 box shows a 1000x800 map at half size, 200 px of bars above and below
    const rect = { left: 10, top: 20, width: 500, height: 800 };
    expect(clientToUser(rect, size, 10, 220)).toEqual([0, 0]);
    expect(clientToUser(rect, size, 510, 620)).toEqual([1000, 800]);
    expect(unitsPerPixel(rect, size)).toBe(2);
  });
  it('reveals a point out of view, and leaves one in view alone', () => {
    const v = { s: 3, x: 0, y: 0 };
    expect(reveal(v, [100, 100], size)).toEqual(v);
    const r = reveal(v, [900, 700], size);
    expect(900 * r.s + r.x).toBeLessThanOrEqual(size.width);
    expect(700 * r.s + r.y).toBeLessThanOrEqual(size.height);
  });
  it('writes one transform', () => {
    expect(transform({ s: 2, x: -10.12345, y: 0 })).toBe('translate(-10.123 0) scale(2)');
  });
});
