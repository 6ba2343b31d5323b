// #lines: the running turn's public lines (role=log, read on demand), the newest one said once
// in the polite live line #announce; #toast: a refusal or notice (role=alert), for a while.

import { h, Keyed, setText } from '../dom';
import type { Toast } from '../store';

export class Lines {
  private readonly keyed: Keyed;
  private lastSaid = '';

  constructor(el: HTMLElement, private readonly live: HTMLElement) {
    this.keyed = new Keyed(el);
  }

  forget(): void {
    this.keyed.forget();
  }

  update(lines: readonly string[], v: number): void {
    this.keyed.set(JSON.stringify(lines), () => lines.map((l) => h('li', {}, l)));
    const newest = lines[lines.length - 1] ?? '';
    const said = `${v}|${newest}`;
    if (newest && said !== this.lastSaid && !this.lastSaid.endsWith(`|${newest}`)) {
      setText(this.live, newest);
    }
    this.lastSaid = said;
  }

  /** Say something once in the live line (a turn begins, the board reconnected). */
  say(text: string): void {
    setText(this.live, text);
  }
}

export const TOAST_MS = 7000;

export class ToastView {
  private shown = 0;
  constructor(private readonly el: HTMLElement, private readonly gone: (seq: number) => void) {}

  update(t: Toast | null): void {
    if (!t) {
      setText(this.el, '');
      this.el.hidden = true;
      this.shown = 0;
      return;
    }
    if (t.seq === this.shown) return;
    this.shown = t.seq;
    this.el.hidden = false;
    this.el.className = `toast ${t.kind}`;
    setText(this.el, t.text);
    window.setTimeout(() => this.gone(t.seq), TOAST_MS);
  }
}
