import { describe, expect, it } from 'vitest';
import { MARGIN, placeSprite, step } from '../src/board/geometry';
import { board } from './fixtures';

const b = board();
const regions = new Map(b.regions.map((r) => [r.id, r]));

describe('placeSprite (as mapview._placed)', () => {
  it('centres a sprite on its spot', () => {
    expect(placeSprite(500, 400, 60, 44, 1028, 956)).toEqual([470, 378]);
  });
  it('keeps it on the map, inside the frame', () => {
    expect(placeSprite(0, 0, 60, 44, 1028, 956)).toEqual([MARGIN, MARGIN]);
    expect(placeSprite(2000, 2000, 60, 44, 1028, 956)).toEqual([1028 - MARGIN - 60, 956 - MARGIN - 44]);
  });
});

describe('arrow keys between regions', () => {
  it('goes to the neighbour most in that direction', () => {
    expect(step(regions, 16, 'right')).toBe(22);
    expect(step(regions, 16, 'up')).toBe(18);
    const left = step(regions, 16, 'left');
    expect(left).not.toBeNull();
    expect(regions.get(16)?.neighbours).toContain(left);
    expect(regions.get(left ?? -1)?.label[0]).toBeLessThan(regions.get(16)?.label[0] ?? 0);
  });
  it('every step from every region lands on a region in that direction, or nowhere', () => {
    for (const r of b.regions) {
      for (const dir of ['left', 'right', 'up', 'down'] as const) {
        const to = step(regions, r.id, dir);
        if (to === null) continue;
        const [dx, dy] = [regions.get(to)!.label[0] - r.label[0], regions.get(to)!.label[1] - r.label[1]];
        const along = { left: -dx, right: dx, up: -dy, down: dy }[dir];
        expect(along, `${r.id} ${dir} -> ${to}`).toBeGreaterThan(0);
      }
    }
  });
  it('unknown regions go nowhere', () => {
    expect(step(regions, 999, 'up')).toBeNull();
  });
});
