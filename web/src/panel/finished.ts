// #finished: once the game is over, the ranking (coins are public then) and the end card and
// replay as posted in the channel.

import { h, Keyed } from '../dom';
import type { Words } from '../i18n';
import type { Snapshot } from '../protocol';

/** Only the page's own paths (the server's story links), never another origin. */
export function safePath(p: unknown): string | null {
  return typeof p === 'string' && p.startsWith('/') && !p.startsWith('//') ? p : null;
}

export class Finished {
  private readonly keyed: Keyed;
  constructor(readonly el: HTMLElement) {
    this.keyed = new Keyed(el);
  }

  /** Build again on the next update (a web font arrived). */
  forget(): void {
    this.keyed.forget();
  }

  update(snap: Snapshot | null, w: Words): void {
    const over = !!snap?.finished;
    this.el.hidden = !over;
    if (!snap || !over) {
      this.keyed.set('', () => []);
      return;
    }
    const names = new Map(snap.players.map((p) => [p.name, p.display]));
    const ranking = snap.ranking ?? [];
    const card = safePath(snap.story?.card);
    const replay = safePath(snap.story?.replay);
    this.keyed.set(JSON.stringify([w.lang, ranking, snap.story, [...names]]), () => [
      h('h2', {}, w.t('web.final_scores')),
      h('ul', { class: 'ranking' }, ...ranking.map((r) => h('li', { class: r.rank === 1 ? 'winner' : null },
        w.t('web.rank', { rank: r.rank, player: names.get(r.player) ?? r.player,
          coins: w.n('web.coin_count', r.total) })))),
      card ? h('figure', {}, h('img', { src: card, alt: w.t('web.card'), loading: 'lazy' })) : null,
      replay || card ? h('p', { class: 'story' },
        card ? h('a', { href: card, target: '_blank', rel: 'noopener' }, w.t('web.card')) : null,
        card && replay ? ' \u00b7 ' : null,
        replay ? h('a', { href: replay, target: '_blank', rel: 'noopener' }, w.t('web.replay')) : null) : null,
    ]);
  }
}
