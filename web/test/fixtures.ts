// Test helpers: the fixtures made by the bot's own code (scripts/web_fixtures.py).

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Words } from '../src/i18n';
import type { BoardData, Snapshot } from '../src/protocol';
import { initial, reduce, type State } from '../src/store';

const DIR = join(__dirname, '..', 'fixtures');

export function board(): BoardData {
  return JSON.parse(readFileSync(join(DIR, 'board-official-4p.json'), 'utf8')) as BoardData;
}

export type Fixture = 'conquest' | 'redeploy' | 'spectator' | 'pick' | 'survivors' | 'finished' | 'conquest-th';

export function snap(name: Fixture): { v: number; d: Snapshot } {
  return JSON.parse(readFileSync(join(DIR, `snap-${name}.json`), 'utf8')) as { v: number; d: Snapshot };
}

/** A state that has received one fixture snapshot. */
export function stateOf(name: Fixture): State {
  const s = snap(name);
  return reduce(initial(), { type: 'snap', v: s.v, d: s.d });
}

/** English words with a few of the game's names, as GET /api/i18n/en gives them. */
export function english(): Words {
  return new Words({
    lang: 'en', words: {},
    races: { Trolls: 'Trolls', Orcs: 'Orcs', Halflings: 'Halflings', Ratmen: 'Ratmen' },
    abbr: { Trolls: 'Tro', Orcs: 'Orc', Halflings: 'Hal', Ratmen: 'Rat' },
    powers: { Hill: 'Hill' },
    terrain: { hill: 'hill', farmland: 'farmland', forest: 'forest', mountain: 'mountain', swamp: 'swamp' },
    pieces: { fortress: 'fortress', troll_lair: 'Troll Lair' },
  });
}
