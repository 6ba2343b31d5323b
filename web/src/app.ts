// The controller: holds the state, feeds events through the reducer, sends what intents ask
// for, and brings the board and the panels up to date (at most once an animation frame).

import { Board } from './board/index';
import { byId, setText } from './dom';
import { capital, Words } from './i18n';
import * as intents from './intents';
import type { Outcome } from './intents';
import { movesOf } from './options';
import { Actions } from './panel/actions';
import { DialogView } from './panel/dialog';
import { Finished } from './panel/finished';
import { Lines, ToastView } from './panel/lines';
import { Players } from './panel/players';
import { Row } from './panel/row';
import { Status } from './panel/status';
import type { Act, BoardData, Snapshot, WordsAnswer } from './protocol';
import { busy, initial, reduce, type Conn, type Event, type State } from './store';

/** Where actions go (the socket, or a fake in the harness). */
export interface Transport {
  act(a: Act): string;
  undo(): string;
  hint(): string;
}

export interface Loaders {
  board(key: string): Promise<BoardData>;
  words(lang: string): Promise<WordsAnswer>;
}

export class App {
  state: State = initial();
  words: Words;
  readonly board: Board;
  private transport: Transport | null = null;
  private frame = 0;
  private boardKey = '';
  private wasActing = false;
  private drawnMarked = false;
  private readonly sheet = byId('sheet');
  private wordsLang = '';
  private readonly root = byId('board');
  private readonly veil = byId('veil');
  private readonly status = new Status(byId('status'), byId('bar'), byId('prompt'));
  private readonly players = new Players(byId('players'));
  private readonly row = new Row(byId('row'));
  private readonly actions = new Actions(byId('actions'));
  private readonly lines = new Lines(byId('lines'), byId('announce'));
  private readonly finished = new Finished(byId('finished'));
  private readonly hint = byId('hint');
  private readonly offline = byId('offline');
  private readonly offer = byId('offer');
  private readonly toast = new ToastView(byId('toast'), (seq) => this.dispatch({ type: 'toast-gone', seq }));
  private readonly dialog: DialogView;

  constructor(private readonly load: Loaders, words?: Words) {
    this.words = words ?? new Words();
    this.wordsLang = this.words.fetched ? this.words.lang : '';
    this.board = new Board(byId('map'), {
      onTap: (region) => this.apply(intents.tapRegion(this.state, region)),
      onEscape: () => this.apply(intents.cancel()),
    });
    this.dialog = new DialogView(byId('dialog'), {
      choose: (c) => this.apply(intents.choose(this.state, c)),
      answer: (yes) => this.apply(intents.confirm(this.state, yes)),
      cancel: () => this.apply(intents.cancel()),
    });
    byId('row').addEventListener('click', (e) => {
      const b = (e.target as Element).closest?.('[data-slot]');
      if (b) this.apply(intents.pickSlot(this.state, Number(b.getAttribute('data-slot'))));
    });
    byId('actions').addEventListener('click', (e) => {
      const b = (e.target as Element).closest?.('button[data-act]');
      const act = b?.getAttribute('data-act');
      if (!b || !act) return;
      if (act === 'ally') this.apply(intents.ally(this.state, b.getAttribute('data-target') ?? ''));
      else this.apply(intents.press(this.state, act as intents.Button));
    });
    byId('zoom').addEventListener('click', (e) => {
      const z = (e.target as Element).closest?.('[data-zoom]')?.getAttribute('data-zoom');
      if (z === 'in') this.board.zoom(1.5);
      else if (z === 'out') this.board.zoom(1 / 1.5);
      else if (z === 'reset') this.board.resetView();
    });
    document.addEventListener('keydown', (e) => {
      if (e.key === 'Escape' && (this.state.ui.selected !== null || this.state.ui.moveFrom !== null)) {
        this.apply(intents.cancel());
      }
    });
    this.translateChrome();
  }

  setTransport(t: Transport): void {
    this.transport = t;
  }

  // ------------------------------------------------------------ from the socket

  snap(v: number, d: Snapshot): void {
    if (!this.state.snap) performance.mark?.('sw:first-snap');
    this.dispatch({ type: 'snap', v, d });
    if (d.game.board && d.game.board !== this.boardKey) this.loadBoard(d.game.board);
    if (d.me.lang && d.me.lang !== this.wordsLang) this.loadWords(d.me.lang);
  }

  ack(id: string, v: number): void {
    this.dispatch({ type: 'ack', id, v });
  }

  err(id: string, code: string, text: string): void {
    this.dispatch({ type: 'err', id, code, text });
  }

  /** The AI coach's words; the region its action is on is ringed on the map. */
  gotHint(id: string, text: string, action: Act | null = null): void {
    const at = action?.region ?? action?.to ?? null;
    this.dispatch({ type: 'hint', id, text, region: typeof at === 'number' ? at : null });
  }

  conn(conn: Conn): void {
    this.dispatch({ type: 'conn', conn });
  }

  /** A notice on the board's veil (signed out, no channel, failure): text and maybe a link. */
  notice(conn: Conn, text: string, link?: { href: string; text: string }, retry?: () => void): void {
    this.dispatch({ type: 'conn', conn });
    this.veil.replaceChildren();
    const p = document.createElement('p');
    p.textContent = text;
    this.veil.append(p);
    if (link) {
      const a = document.createElement('a');
      a.href = link.href;
      a.className = 'signin';
      a.textContent = link.text;
      this.veil.append(a);
    }
    if (retry) {
      const b = document.createElement('button');
      b.type = 'button';
      b.textContent = this.words.t('web.retry');
      b.addEventListener('click', retry);
      this.veil.append(b);
    }
    this.veil.hidden = false;
  }

  // ------------------------------------------------------------ state

  dispatch(ev: Event): void {
    const next = reduce(this.state, ev);
    if (next === this.state) return;
    this.state = next;
    this.schedule();
  }

  apply(o: Outcome): void {
    if (o.ui) this.dispatch({ type: 'ui', ui: o.ui });
    const send = o.send;
    if (!send || !this.transport || busy(this.state)) return;
    let id: string;
    let region: number | null = null;
    if (send.kind === 'act') {
      id = this.transport.act(send.a);
      region = send.region ?? null;
    } else if (send.kind === 'undo') id = this.transport.undo();
    else id = this.transport.hint();
    this.dispatch({ type: 'sent', id, region });
  }

  private schedule(): void {
    if (!this.frame) this.frame = requestAnimationFrame(() => this.render());
  }

  /** The first map with the game on it is on screen: the bench reads this mark. */
  private markDrawn(): void {
    if (this.drawnMarked || !this.board.board || !this.state.snap) return;
    this.drawnMarked = true;
    performance.mark?.('sw:board-drawn');
  }

  /** Fetch a board's drawing data before the first snap names it (sign-in said which). */
  prefetchBoard(key: string | undefined): void {
    if (key && !this.boardKey) void this.loadBoard(key);
  }

  private async loadBoard(key: string): Promise<void> {
    this.boardKey = key;
    try {
      const data = await this.load.board(key);
      if (this.boardKey !== key) return;
      this.board.setBoard(data);
      byId('zoom').hidden = false;
      this.board.update(this.state.snap, this.state.ui, this.words, this.state.v);
      this.board.flush();
      this.markDrawn();
    } catch {
      this.boardKey = '';
      if (this.state.snap?.stage !== 'lobby') { // a lobby may not have chosen its board yet
        this.dispatch({ type: 'toast', text: this.words.t('web.failed'), kind: 'error' });
      }
    }
  }

  /** Fetch the words of `lang` (once; a later language asked for wins). */
  async loadWords(lang: string): Promise<void> {
    if (lang === this.wordsLang) return;
    this.wordsLang = lang;
    try {
      const answer = await this.load.words(lang);
      if (this.wordsLang !== lang) return;
      await this.fontFor(answer.lang);
      if (this.wordsLang !== lang) return;
      this.setWords(new Words(answer));
    } catch {
      // keep the words we have (English at worst)
    }
  }

  /** Build every text again: Chromium keeps boxes for text laid out before a web font with a
   * unicode-range (the Thai one) arrived, until the text is laid out anew. */
  refreshAll(): void {
    for (const p of [this.status, this.players, this.row, this.actions, this.lines, this.finished, this.dialog]) {
      p.forget();
    }
    for (const el of document.querySelectorAll<HTMLElement>('[data-word]')) el.textContent = '';
    this.translateChrome();
    this.board.redrawAll();
    this.render();
  }

  setWords(w: Words): void {
    this.words = w;
    this.wordsLang = w.lang;
    this.translateChrome();
    this.board.redrawAll();
    this.schedule();
  }

  /** Wait (a little) for the web font a language needs before showing its words. */
  private async fontFor(lang: string): Promise<void> {
    if (lang !== 'th' || !document.fonts?.load) return;
    const wait = new Promise((resolve) => window.setTimeout(resolve, 2000));
    await Promise.race([document.fonts.load('700 16px "SW Thai"', '\u0e01').catch(() => undefined), wait]);
  }

  /** The page's fixed words (headings, zoom buttons), in the current language. */
  private translateChrome(): void {
    const w = this.words;
    document.documentElement.lang = w.lang;
    for (const el of document.querySelectorAll<HTMLElement>('[data-word]')) {
      setText(el, w.t(el.dataset.word ?? ''));
    }
    for (const el of document.querySelectorAll<HTMLElement>('[data-word-label]')) {
      el.setAttribute('aria-label', w.t(el.dataset.wordLabel ?? ''));
    }
    for (const el of document.querySelectorAll<HTMLElement>('[data-word-title]')) {
      el.title = w.t(el.dataset.wordTitle ?? '');
    }
  }

  render(): void {
    if (this.frame) cancelAnimationFrame(this.frame);
    this.frame = 0;
    const s = this.state;
    const w = this.words;
    const snap = s.snap;
    const isBusy = busy(s);
    this.root.dataset.version = String(s.v);
    this.root.dataset.state = s.conn;
    if (s.conn === 'live' || (s.conn === 'connecting' && snap)) this.veil.hidden = true;
    else if (s.conn === 'connecting') this.veil.hidden = false;
    this.offline.hidden = !(s.conn === 'connecting' && snap);
    this.toast.update(s.ui.toast);
    if (!snap) return; // nothing to show yet: the first frames stay cheap
    this.sheet.hidden = false;
    this.board.update(snap, s.ui, w, s.v);
    this.board.flush(); // already in an animation frame: draw the map in this one
    this.markDrawn();
    this.status.update(s, w);
    this.players.update(snap, w);
    this.row.update(snap, w, !!movesOf(snap)?.pick && !isBusy);
    this.actions.update(snap, w, isBusy);
    this.lines.update(snap?.lines ?? [], s.v);
    this.finished.update(snap, w);
    this.offer.hidden = !!snap?.finished || (snap?.row.length ?? 0) === 0;
    this.dialog.update(s.ui.dialog, snap, w, isBusy);
    setText(this.hint, s.ui.hint ?? '');
    this.hint.hidden = !s.ui.hint;
    const acting = !!snap?.me.acts;
    if (acting && !this.wasActing) this.lines.say(capital(w.t('web.turn.yours'), w.lang));
    this.wasActing = acting;
    document.body.classList.toggle('acting', acting);
  }
}
