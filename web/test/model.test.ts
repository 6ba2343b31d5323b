import { describe, expect, it } from 'vitest';
import { regionLabel } from '../src/board/a11y';
import { playersByName, showRegions } from '../src/board/model';
import { reduce } from '../src/store';
import { board, english, snap, stateOf } from './fixtures';

const b = board();
const w = english();

describe('region names for screen readers (the map alt sentence, region by region)', () => {
  const s = stateOf('conquest');
  const players = playersByName(s.snap);
  const geo = (id: number) => b.regions.find((r) => r.id === id)!;

  it('names id, terrain, holder and tokens, and what a tap does', () => {
    const shows = showRegions(b, s.snap, s.ui, w);
    expect(shows.find((r) => r.id === 16)?.label).toBe('Region 16, Hill, empty, magic source, conquer for 2 tokens');
    expect(shows.find((r) => r.id === 13)?.label)
      .toBe("Region 13, Farmland, Bob's Trolls, 1 token, fortress, Troll Lair, mine, your region: deploy, move or place here");
    expect(shows.find((r) => r.id === 8)?.label).toBe('Region 8, Hill, lost tribe, cavern, final conquest: roll the die for it');
  });
  it('says decline, and nothing to do for a spectator', () => {
    const spectator = stateOf('spectator');
    expect(regionLabel(geo(11), spectator.snap?.regions['11'], players, w, null))
      .toBe("Region 11, Forest, Cid's Ratmen in decline, 1 token, magic source");
    const shows = showRegions(b, spectator.snap, spectator.ui, w);
    expect(shows.every((r) => r.ring === null && r.badge === null)).toBe(true);
  });
});

describe('what each region shows', () => {
  it('targets get a ring and their cost (a die where a die decides)', () => {
    const s = stateOf('conquest');
    const shows = new Map(showRegions(b, s.snap, s.ui, w).map((r) => [r.id, r]));
    expect(shows.get(16)).toMatchObject({ ring: 'target', badge: '2' });
    expect(shows.get(8)).toMatchObject({ ring: 'target', badge: 'die' });
    expect(shows.get(13)).toMatchObject({ ring: null, badge: null, tag: 'Tro', colour: '#0072b2' });
    expect(shows.get(36)).toMatchObject({ tag: 'Tribe' });
  });
  it("the coach's suggestion is ringed apart, its cost kept", () => {
    const s = reduce(stateOf('conquest'), { type: 'hint', id: 'h', text: '…', region: 16 });
    const shows = new Map(showRegions(b, s.snap, s.ui, w).map((r) => [r.id, r]));
    expect(shows.get(16)).toMatchObject({ ring: 'hint', badge: '2' });
    expect(shows.get(8)).toMatchObject({ ring: 'target' });
  });
  it('"move from" rings the destinations with how many may come', () => {
    const s = reduce(stateOf('redeploy'), { type: 'ui', ui: { moveFrom: 16, selected: 16 } });
    const shows = new Map(showRegions(b, s.snap, s.ui, w).map((r) => [r.id, r]));
    expect(shows.get(16)?.ring).toBe('selected');
    expect(shows.get(13)).toMatchObject({ ring: 'dest', badge: '+1' });
    expect(shows.get(13)?.label).toMatch(/move up to 1 token here$/);
  });
  it('a new version changes the tokens key of the regions that changed, and only those', () => {
    const before = stateOf('conquest');
    const next = snap('conquest').d;
    next.regions['16'] = { owner: 'bob', race: 'Trolls', tokens: 2, decline: false, pieces: ['troll_lair'] };
    const after = reduce(before, { type: 'snap', v: 99, d: next });
    const a = showRegions(b, before.snap, before.ui, w);
    const z = showRegions(b, after.snap, after.ui, w);
    const differ = a.filter((r, i) => r.tokens !== z[i]!.tokens).map((r) => r.id);
    expect(differ).toEqual([16]);
  });
  it('once conquests are over, her regions with something to do are ringed; not while she conquers', () => {
    const survivors = stateOf('survivors');
    const shows = showRegions(b, survivors.snap, survivors.ui, w).filter((r) => r.ring === 'own').map((r) => r.id);
    expect(shows).toEqual([33]);
    const conquest = stateOf('conquest');
    expect(showRegions(b, conquest.snap, conquest.ui, w).some((r) => r.ring === 'own')).toBe(false);
  });
  it('the pending region is marked', () => {
    const s = reduce(stateOf('conquest'), { type: 'sent', id: 'a1', region: 16 });
    expect(showRegions(b, s.snap, s.ui, w).filter((r) => r.pending).map((r) => r.id)).toEqual([16]);
  });
});
