// Dev harness (not shipped): the page's app on the fixtures, with a fake server in the page.
// Query: ?snap=conquest|redeploy|spectator  &lang=th  &refuse=1  &hints=1  &finished=1  &left=5400 (s)
//        &pick=1 (a pick turn)  &dialog=decline (open a dialog)  &select=13 (tap a region)

import { App } from '../src/app';
import type { Transport } from '../src/app';
import { tapRegion } from '../src/intents';
import type { Act, BoardData, Snapshot, WordsAnswer } from '../src/protocol';

const q = new URLSearchParams(location.search);

async function get<T>(path: string): Promise<T> {
  const r = await fetch(path);
  if (!r.ok) throw new Error(`${path}: ${r.status}`);
  return (await r.json()) as T;
}

function shaped(d: Snapshot): Snapshot {
  const lang = q.get('lang');
  if (lang) d.me.lang = lang;
  if (q.get('hints')) d.game.hints = true;
  const left = q.get('left');
  if (left) d.clock.deadline = Date.now() / 1000 + Number(left);
  if (q.get('pick') && d.moves) {
    d.moves.pick = true;
    d.moves.targets = [];
    d.stage = 'pick';
  }
  if (q.get('undo') && d.moves) d.moves.undo = true;
  if (q.get('finished')) {
    d.finished = true;
    d.stage = 'finished';
    d.moves = null;
    d.me.acts = false;
    const coins = [31, 27, 27, 19];
    d.players.forEach((p, i) => { p.coins = coins[i] ?? 0; });
    d.ranking = d.players.map((p, i) => ({ player: p.name, total: coins[i] ?? 0, tokens: 9 - i,
      rank: i === 0 ? 1 : i === 3 ? 4 : 2 }));
    d.story = { card: '/story/7/card.png', replay: '/story/7/replay.png' };
  }
  return d;
}

async function main(): Promise<void> {
  const which = q.get('snap') ?? 'conquest';
  const msg = await get<{ v: number; d: Snapshot }>(`/fixtures/snap-${which}.json`);
  const app = new App({
    board: (key) => get<BoardData>(`/api/board/${key}`),
    words: (lang) => get<WordsAnswer>(`/api/i18n/${lang}`),
  });
  let v = msg.v;
  let n = 0;
  const sent: unknown[] = [];
  const later = (fn: () => void): void => void window.setTimeout(fn, 250);
  const transport: Transport = {
    act(a: Act): string {
      const id = `a${++n}`;
      sent.push({ t: 'act', id, a });
      later(() => {
        if (q.get('refuse')) {
          app.err(id, 'not_adjacent', 'Region 14 is not next to your Trolls.');
          return;
        }
        v += 1;
        app.ack(id, v);
        const d = structuredClone(app.state.snap) as Snapshot;
        d.changed = typeof a.region === 'number' ? [a.region] : [];
        d.lines = [...d.lines, `(harness) ${JSON.stringify(a)}`];
        app.snap(v, d);
      });
      return id;
    },
    undo(): string {
      const id = `u${++n}`;
      sent.push({ t: 'undo', id });
      later(() => app.ack(id, v));
      return id;
    },
    hint(): string {
      const id = `h${++n}`;
      sent.push({ t: 'hint', id });
      later(() => app.gotHint(id, 'Conquer region 16: it costs 2 and leaves you a token for the die.'));
      return id;
    },
  };
  app.setTransport(transport);
  app.conn('live');
  app.snap(msg.v, shaped(msg.d));
  Object.assign(window, { app, sent });
  const dialog = q.get('dialog');
  const select = q.get('select');
  window.setTimeout(() => {
    if (dialog === 'decline' || dialog === 'end') document.querySelector<HTMLButtonElement>(`button[data-act="${dialog}"]`)?.click();
    if (select) app.apply(tapRegion(app.state, Number(select)));
    document.body.dataset.ready = '1';
  }, 600);
}

void main();
