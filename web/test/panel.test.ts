// The pure parts of the panel and the boot: what the action bar, a dialog and the status say.

import { describe, expect, it } from 'vitest';
import { channelFromPath, loginHref } from '../src/auth';
import { isTap, keyCommand, TAP_MS, TAP_PX } from '../src/board/input';
import { buttons } from '../src/panel/actions';
import { shown } from '../src/panel/dialog';
import { safePath } from '../src/panel/finished';
import { activeLine, declineLine } from '../src/panel/players';
import { comboWords } from '../src/panel/row';
import { prompt, whoseTurn } from '../src/panel/status';
import { reduce } from '../src/store';
import { english, stateOf } from './fixtures';

const w = english();

describe('the action bar', () => {
  it('offers only what moves offers, and nothing to a spectator', () => {
    expect(buttons(stateOf('conquest').snap).map((b) => b.act)).toEqual(['end', 'decline']);
    expect(buttons(stateOf('spectator').snap)).toEqual([]);
    const s = structuredClone(stateOf('conquest'));
    Object.assign(s.snap!.moves!, { roll: true, undo: true, ally: ['ann'], decline: false });
    s.snap!.game.hints = true;
    expect(buttons(s.snap).map((b) => [b.act, b.target])).toEqual([
      ['roll', undefined], ['ally', 'ann'], ['end', undefined], ['undo', undefined], ['hint', undefined]]);
  });
});

describe('dialogs', () => {
  it('a region sheet lists its choices; End asks with the tokens in hand', () => {
    const s = stateOf('conquest');
    expect(shown({ kind: 'region', region: 15 }, s.snap, w)?.choices.map((c) => c.choice))
      .toEqual(['deploy', 'deploy', 'fortress', 'abandon']);
    expect(shown({ kind: 'confirm', what: 'end' }, s.snap, w)?.text).toMatch(/^You still hold 2 tokens in hand\./);
    expect(shown({ kind: 'confirm', what: 'decline' }, s.snap, w)?.text).toMatch(/^Put your Trolls into decline\?/);
  });
  it('shows nothing to a viewer without moves', () => {
    expect(shown({ kind: 'region', region: 15 }, stateOf('spectator').snap, w)).toBeNull();
  });
});

describe('status and prompt', () => {
  it('says whose turn it is, hers in her own words', () => {
    expect(whoseTurn(stateOf('conquest').snap!, w)).toBe('Round 5 of 9 \u00b7 your turn (conquest)');
    expect(whoseTurn(stateOf('spectator').snap!, w)).toBe('Round 5 of 9 \u00b7 Bob to play (conquest)');
  });
  it('tells her what to do, or that she is watching, or that the server is answering', () => {
    expect(prompt(stateOf('spectator'), w)).toBe('You are watching this game.');
    expect(prompt(stateOf('conquest'), w)).toMatch(/^Tap a highlighted region/);
    expect(prompt(reduce(stateOf('conquest'), { type: 'sent', id: 'a', region: 16 }), w)).toBe('Waiting for the server\u2026');
    expect(prompt(reduce(stateOf('redeploy'), { type: 'ui', ui: { moveFrom: 16 } }), w)).toMatch(/region 16 go to\.$/);
  });
});

describe('players and combos', () => {
  it("a player's public line: race, tokens, hand, regions; declines apart", () => {
    const bob = stateOf('conquest').snap!.players[1]!;
    expect(activeLine(bob, w)).toBe('Fortified Trolls \u00b7 5 on the map \u00b7 2 in hand \u00b7 5 regions');
    expect(declineLine(stateOf('conquest').snap!.players[0]!, w)).toBe('in decline: Forest Elves (2)');
  });
  it('a combo: its tokens, cost and the coins lying on it', () => {
    const row = stateOf('conquest').snap!.row;
    expect(comboWords(row[0]!, w)).toMatchObject({ cost: 'free', coins: '' });
    expect(comboWords(row[2]!, w)).toMatchObject({ tokens: '11 tokens', cost: 'costs 2', coins: '1 coin on it' });
  });
});

describe('input and boot', () => {
  it('a tap is short, small and one finger', () => {
    expect(isTap(TAP_PX, TAP_MS, false)).toBe(true);
    expect(isTap(TAP_PX + 1, 10, false)).toBe(false);
    expect(isTap(0, TAP_MS + 1, false)).toBe(false);
    expect(isTap(0, 10, true)).toBe(false);
    expect(isTap(0, TAP_MS + 200, false, 'mouse')).toBe(true); // a slower click still clicks
  });
  it('keys on the map', () => {
    expect(keyCommand('ArrowUp')).toEqual({ kind: 'step', dir: 'up' });
    expect(keyCommand(' ')).toEqual({ kind: 'act' });
    expect(keyCommand('+')).toEqual({ kind: 'zoom', factor: 1.5 });
    expect(keyCommand('0')).toEqual({ kind: 'reset' });
    expect(keyCommand('a')).toBeNull();
  });
  it('the channel comes from /c/{id}; the sign-in link carries it', () => {
    expect(channelFromPath('/c/123456789012345678')).toBe('123456789012345678');
    expect(channelFromPath('/c/12/')).toBe('12');
    expect(channelFromPath('/')).toBeNull();
    expect(channelFromPath('/c/abc')).toBeNull();
    expect(loginHref('12')).toBe('/auth/login?channel=12');
  });
  it('story links are the page\'s own paths only', () => {
    expect(safePath('/story/7/card.png')).toBe('/story/7/card.png');
    expect(safePath('//evil.example/x.png')).toBeNull();
    expect(safePath('https://evil.example/x.png')).toBeNull();
    expect(safePath('javascript:alert(1)')).toBeNull();
    expect(safePath(undefined)).toBeNull();
  });
});
