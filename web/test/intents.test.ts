import { describe, expect, it } from 'vitest';
import { ally, cancel, choose, confirm, pickSlot, press, tapRegion } from '../src/intents';
import { regionChoices } from '../src/options';
import { reduce, type State } from '../src/store';
import { stateOf } from './fixtures';

function after(s: State, o: { ui?: Partial<State['ui']> }): State {
  return o.ui ? reduce(s, { type: 'ui', ui: o.ui }) : s;
}

describe('conquest', () => {
  const s = stateOf('conquest');
  it('a tap on a target with one verb sends its action at once', () => {
    expect(tapRegion(s, 16).send).toEqual({ kind: 'act', a: { do: 'conquer', region: 16 }, region: 16 });
    expect(tapRegion(s, 8).send).toEqual({ kind: 'act', a: { do: 'reinforce', region: 8 }, region: 8 });
  });
  it('a region with several verbs opens a chooser', () => {
    const two = structuredClone(s);
    two.snap!.moves!.targets.push({ region: 16, verb: 'dragon', cost: 1, a: { do: 'dragon', region: 16 } });
    const o = tapRegion(two, 16);
    expect(o.send).toBeUndefined();
    expect(o.ui?.dialog).toEqual({ kind: 'region', region: 16 });
    expect(regionChoices(two.snap!.moves, 16).map((c) => c.choice)).toEqual(['conquer', 'dragon']);
  });
  it('a tap on her own region opens its sheet: deploy, place, abandon', () => {
    const o = tapRegion(s, 15);
    expect(o.ui?.dialog).toEqual({ kind: 'region', region: 15 });
    const choices = regionChoices(s.snap!.moves, 15);
    expect(choices.map((c) => [c.choice, c.count])).toEqual([
      ['deploy', 1], ['deploy', 2], ['fortress', undefined], ['abandon', undefined]]);
    expect(choose(after(s, o), choices[1]!).send).toEqual({ kind: 'act', a: { do: 'deploy', region: 15, count: 2 }, region: 15 });
  });
  it('a tap on a region offering nothing does nothing', () => {
    expect(tapRegion(s, 30)).toEqual({});
  });
  it('nothing is sent while an action is on its way', () => {
    const busy = reduce(s, { type: 'sent', id: 'a1', region: 16 });
    expect(tapRegion(busy, 16)).toEqual({});
    expect(press(busy, 'end')).toEqual({});
  });
});

describe('redeployment: move from one region to another', () => {
  const s = stateOf('redeploy');
  it('"move from here" then a tap on a destination sends the move', () => {
    const o = tapRegion(s, 16);
    const s1 = after(s, o);
    const move = regionChoices(s.snap!.moves, 16).find((c) => c.choice === 'move')!;
    const s2 = after(s1, choose(s1, move));
    expect(s2.ui.moveFrom).toBe(16);
    expect(tapRegion(s2, 13).send).toEqual({ kind: 'act', a: { do: 'move', from: 16, to: 13, count: 1 }, region: 13 });
  });
  it('several tokens ask how many', () => {
    const many = structuredClone(s);
    many.snap!.moves!.move = { 16: { 13: 3 } };
    const s2 = after(many, { ui: { moveFrom: 16, selected: 16 } });
    expect(tapRegion(s2, 13).ui?.dialog).toEqual({ kind: 'move', from: 16, to: 13 });
  });
  it('a tap on the source again leaves "move from"', () => {
    const s2 = after(s, { ui: { moveFrom: 16, selected: 16 } });
    expect(tapRegion(s2, 16).ui).toMatchObject({ moveFrom: null, selected: null });
  });
});

describe('buttons', () => {
  const s = stateOf('conquest');
  it('decline always asks first; yes sends it, no does not', () => {
    const o = press(s, 'decline');
    expect(o.send).toBeUndefined();
    const asked = after(s, o);
    expect(asked.ui.dialog).toEqual({ kind: 'confirm', what: 'decline' });
    expect(confirm(asked, true).send).toEqual({ kind: 'act', a: { do: 'decline' } });
    expect(confirm(asked, false).send).toBeUndefined();
  });
  it('end asks only when the server says so', () => {
    expect(press(s, 'end').send).toEqual({ kind: 'act', a: { do: 'end' } });
    const asks = structuredClone(s);
    asks.snap!.moves!.end_asks = true;
    expect(press(asks, 'end').ui?.dialog).toEqual({ kind: 'confirm', what: 'end' });
  });
  it('roll, undo and hint only when offered', () => {
    expect(press(s, 'roll')).toEqual({});
    expect(press(s, 'undo')).toEqual({});
    expect(press(s, 'hint')).toEqual({}); // hints are off in this game
    const on = structuredClone(s);
    on.snap!.moves!.roll = true;
    on.snap!.moves!.undo = true;
    on.snap!.game.hints = true;
    expect(press(on, 'roll').send).toEqual({ kind: 'act', a: { do: 'roll' } });
    expect(press(on, 'undo').send).toEqual({ kind: 'undo' });
    expect(press(on, 'hint').send).toEqual({ kind: 'hint' });
  });
  it('pick and ally only when offered', () => {
    expect(pickSlot(s, 2)).toEqual({});
    const p = structuredClone(s);
    p.snap!.moves!.pick = true;
    p.snap!.moves!.ally = ['ann'];
    expect(pickSlot(p, 2).send).toEqual({ kind: 'act', a: { do: 'pick', slot: 2 } });
    expect(ally(p, 'ann').send).toEqual({ kind: 'act', a: { do: 'ally', target: 'ann' } });
    expect(ally(p, 'cid')).toEqual({});
  });
  it('escape clears the selection', () => {
    expect(cancel().ui).toEqual({ dialog: null, selected: null, moveFrom: null });
  });
});

describe('viewers who must not act', () => {
  it('a spectator has no moves: taps and buttons do nothing', () => {
    const s = stateOf('spectator');
    expect(s.snap?.me.seat).toBeNull();
    expect(tapRegion(s, 16)).toEqual({});
    for (const b of ['roll', 'decline', 'end', 'undo', 'hint'] as const) expect(press(s, b)).toEqual({});
    expect(pickSlot(s, 0)).toEqual({});
  });
  it('moves are ignored when the snapshot says she does not act', () => {
    const s = structuredClone(stateOf('conquest'));
    s.snap!.me.acts = false;
    expect(tapRegion(s, 16)).toEqual({});
  });
});

describe('more positions made by the bot (scripts/web_fixtures.py)', () => {
  it('a pick turn: a combo card picks, a region does nothing', () => {
    const s = stateOf('pick');
    expect(pickSlot(s, 3).send).toEqual({ kind: 'act', a: { do: 'pick', slot: 3 } });
    expect(tapRegion(s, 16)).toEqual({});
  });
  it('survivors: a tap on her region offers to deploy them there', () => {
    const s = stateOf('survivors');
    expect(s.snap?.moves?.defender).toBe(true);
    const o = tapRegion(s, 33);
    expect(o.ui?.dialog).toEqual({ kind: 'region', region: 33 });
    expect(regionChoices(s.snap!.moves, 33).map((c) => c.out)).toEqual([
      { kind: 'act', a: { do: 'deploy', region: 33, count: 1 }, region: 33 },
      { kind: 'act', a: { do: 'deploy', region: 33, count: 2 }, region: 33 }]);
  });
  it('a finished game: nobody acts, everybody\'s coins are public', () => {
    const s = stateOf('finished');
    expect(s.snap?.finished).toBe(true);
    expect(tapRegion(s, 33)).toEqual({});
    expect(s.snap?.players.every((p) => typeof p.coins === 'number')).toBe(true);
    expect(s.snap?.ranking?.[0]?.rank).toBe(1);
  });
});
