// The chooser / question: a region's sheet (targets, deploy, move, place, abandon), how many
// tokens to move, and Decline's and End's questions. One [role=dialog] at a time; its buttons
// carry data-choice; Escape or Cancel closes it and focus goes back where it was.

import { h, Keyed } from '../dom';
import { capital, type Words } from '../i18n';
import { moveChoices, moveMax, movesOf, regionChoices, type Choice } from '../options';
import type { Snapshot } from '../protocol';
import type { Dialog } from '../store';

export interface Shown {
  title: string;
  text?: string;
  choices: Choice[];
  /** A question: yes / no buttons instead of choices. */
  yesNo?: { yes: string; no: string };
}

function choiceText(c: Choice, w: Words): string {
  const params = { ...(c.params ?? {}) };
  if (typeof params.piece === 'string') params.piece = w.piece(params.piece);
  const text = c.n !== undefined ? w.n(c.word, c.n, params) : w.t(c.word, params);
  return capital(text, w.lang);
}

/** What a dialog shows (pure given the words). */
export function shown(d: Dialog, snap: Snapshot | null, w: Words): Shown | null {
  const moves = movesOf(snap);
  if (!moves) return null;
  switch (d.kind) {
    case 'region':
      return { title: w.t('web.region', { id: d.region }), choices: regionChoices(moves, d.region) };
    case 'move':
      return {
        title: w.t('web.move_title', { from: d.from, to: d.to }),
        choices: moveChoices(d.from, d.to, moveMax(moves, d.from, d.to)),
      };
    case 'confirm': {
      if (d.what === 'decline') {
        const me = snap?.players.find((p) => p.name === snap.me.seat);
        return { title: w.t('web.decline_title'), text: w.t('web.decline_ask', { race: w.race(me?.active?.race) }),
          choices: [], yesNo: { yes: w.t('web.decline_yes'), no: w.t('web.no') } };
      }
      return { title: w.t('web.end_title'), text: w.n('web.end_ask', moves.hand),
        choices: [], yesNo: { yes: w.t('web.end_yes'), no: w.t('web.no') } };
    }
  }
}

export interface DialogHandlers {
  choose(c: Choice): void;
  answer(yes: boolean): void;
  cancel(): void;
}

export class DialogView {
  private readonly keyed: Keyed;
  private returnFocus: HTMLElement | null = null;
  private open = false;
  private current: Choice[] = [];

  constructor(readonly host: HTMLElement, private readonly on: DialogHandlers) {
    this.keyed = new Keyed(host);
    host.addEventListener('click', (e) => this.click(e));
    host.addEventListener('keydown', (e) => {
      if (e.key === 'Escape') {
        e.preventDefault();
        this.on.cancel();
      } else if (e.key === 'Tab') {
        this.trap(e);
      }
    });
  }

  forget(): void {
    this.keyed.forget();
  }

  update(d: Dialog | null, snap: Snapshot | null, w: Words, busy: boolean): void {
    const s = d ? shown(d, snap, w) : null;
    if (!s || busy) {
      this.close();
      return;
    }
    this.current = s.choices;
    const fresh = this.keyed.set(JSON.stringify([w.lang, d, s.title, s.text, s.choices.map((c) => choiceText(c, w))]), () => {
      const titleId = 'dialog-title';
      const buttons = s.yesNo
        ? [h('button', { type: 'button', 'data-choice': 'yes', class: 'main' }, s.yesNo.yes),
          h('button', { type: 'button', 'data-choice': 'no' }, s.yesNo.no)]
        : [...s.choices.map((c, i) => h('button', {
          type: 'button', 'data-choice': c.choice, 'data-count': c.count ?? null, 'data-index': i,
          class: i === 0 ? 'main' : null,
        }, choiceText(c, w))),
        h('button', { type: 'button', 'data-choice': 'cancel' }, w.t('web.cancel'))];
      return [h('div', { role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': titleId, class: 'dialog' },
        h('h2', { id: titleId }, s.title),
        s.text ? h('p', {}, s.text) : null,
        h('div', { class: 'choices' }, ...buttons))];
    });
    if (!this.open) {
      this.open = true;
      const active = document.activeElement;
      this.returnFocus = active instanceof HTMLElement || active instanceof SVGElement ? active as HTMLElement : null;
    }
    this.host.hidden = false; // before focusing: a hidden button takes no focus
    if (fresh) this.host.querySelector<HTMLButtonElement>('button')?.focus({ preventScroll: true });
  }

  /** Tab stays inside the open dialog (it is modal). */
  private trap(e: KeyboardEvent): void {
    const buttons = [...this.host.querySelectorAll<HTMLButtonElement>('button')];
    const first = buttons[0];
    const last = buttons[buttons.length - 1];
    if (!first || !last) return;
    if (e.shiftKey && document.activeElement === first) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && document.activeElement === last) {
      e.preventDefault();
      first.focus();
    }
  }

  private close(): void {
    if (!this.open) return;
    this.open = false;
    this.keyed.set('', () => []);
    this.host.hidden = true;
    const back = this.returnFocus;
    this.returnFocus = null;
    if (back && document.contains(back)) back.focus({ preventScroll: true });
  }

  private click(e: Event): void {
    const b = (e.target as Element).closest?.('button[data-choice]');
    if (!b) {
      if (e.target === this.host) this.on.cancel(); // a tap on the shade
      return;
    }
    const choice = b.getAttribute('data-choice');
    if (choice === 'yes' || choice === 'no') this.on.answer(choice === 'yes');
    else if (choice === 'cancel') this.on.cancel();
    else {
      const c = this.current[Number(b.getAttribute('data-index'))];
      if (c) this.on.choose(c);
    }
  }
}
