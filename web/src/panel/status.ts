// #status: the round, whose turn and the time left (ticking each second); #coins: her own
// coins, only when the snapshot carries them; #prompt: what she can do now.

import { timeLeft } from '../clock';
import { h, setText } from '../dom';
import type { Words } from '../i18n';
import { movesOf } from '../options';
import type { Snapshot } from '../protocol';
import type { State } from '../store';

export function whoseTurn(snap: Snapshot, w: Words): string {
  if (snap.finished) return w.t('web.finished');
  if (snap.stage === 'lobby' || !snap.current) return w.t('web.lobby');
  const round = w.t('web.round', { round: snap.round, rounds: snap.rounds });
  const stage = w.t(`web.stage.${snap.stage}`);
  if (snap.me.acts) return `${round} \u00b7 ${w.t('web.turn.yours')} (${stage})`;
  const actor = snap.actor ?? snap.current;
  const who = snap.players.find((p) => p.name === actor)?.display ?? actor;
  return `${round} \u00b7 ${w.t('web.turn.of', { player: who })} (${stage})`;
}

/** What the viewer should do now, in one line. */
export function prompt(state: State, w: Words): string {
  const snap = state.snap;
  if (!snap) return '';
  if (state.ui.pending) return w.t('web.waiting');
  if (snap.finished) return '';
  if (snap.me.seat === null) return w.t('web.spectator');
  const moves = movesOf(snap);
  if (!moves) return '';
  if (state.ui.moveFrom !== null) return w.t('web.move_where', { region: state.ui.moveFrom });
  if (moves.defender) return w.t('web.survivors');
  if (moves.pick) return w.t('web.pick_now');
  if (moves.targets.length > 0) return w.t('web.conquer_now');
  if (Object.keys(moves.deploy).length + Object.keys(moves.move).length > 0) {
    return w.t('web.redeploy_now');
  }
  return moves.end ? w.t('web.end_now') : '';
}

export class Status {
  private deadline: number | null = null;
  private head = '';
  private words: Words | null = null;
  private timer: number | null = null;

  constructor(private readonly el: HTMLElement, private readonly coinsHost: HTMLElement,
    private readonly promptEl: HTMLElement) {}

  /** Lay the words out again (a web font arrived: text laid out before it may show boxes). */
  forget(): void {
    for (const el of [this.el, this.promptEl, document.getElementById('coins')]) {
      if (el) el.textContent = '';
    }
  }

  update(state: State, w: Words): void {
    const snap = state.snap;
    this.words = w;
    this.head = snap ? whoseTurn(snap, w) : '';
    this.deadline = snap && !snap.finished ? snap.clock?.deadline ?? null : null;
    this.tick();
    if (this.deadline !== null && this.timer === null) {
      this.timer = window.setInterval(() => this.tick(), 1000);
    } else if (this.deadline === null && this.timer !== null) {
      window.clearInterval(this.timer);
      this.timer = null;
    }
    this.coins(snap, w);
    setText(this.promptEl, prompt(state, w));
  }

  private tick(): void {
    const w = this.words;
    if (!w) return;
    let text = this.head;
    if (this.deadline !== null) {
      const left = timeLeft(this.deadline - Date.now() / 1000, w);
      text += ` \u00b7 ${left ? w.t('web.time.left', { time: left }) : w.t('web.time.up')}`;
    }
    setText(this.el, text);
  }

  /** Her coins: the element exists only when the snapshot gives them (never for spectators). */
  private coins(snap: Snapshot | null, w: Words): void {
    const mine = snap?.me.coins;
    let el = document.getElementById('coins');
    if (typeof mine !== 'number') {
      el?.remove();
      return;
    }
    if (!el) {
      el = h('span', { id: 'coins', class: 'coins' });
      this.coinsHost.append(el);
    }
    setText(el, w.t('web.coins', { n: mine }));
  }
}
