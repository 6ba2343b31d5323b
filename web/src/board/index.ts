// The board: one <svg> in #board, drawn from the board data and brought up to date with each
// snapshot in one animation frame; zoom, pan, taps and keys.

import type { Words } from '../i18n';
import type { BoardData, RegionGeo, Snapshot } from '../protocol';
import type { UI } from '../store';
import { step } from './geometry';
import { bindPointers, keyCommand } from './input';
import { showRegions } from './model';
import { build, draw, flash, invalidate, type Drawing } from './render';
import { svg } from './svg';
import { clamp, FIT, reveal, transform, zoomAt, type View } from './viewport';

export interface BoardOptions {
  onTap(region: number): void;
  onEscape(): void;
  spriteBase?: string;
}

export class Board {
  readonly el: HTMLElement;
  private readonly svgEl: SVGSVGElement;
  private readonly opts: BoardOptions;
  private data: BoardData | null = null;
  private drawing: Drawing | null = null;
  private geo = new Map<number, RegionGeo>();
  private viewState: View = FIT;
  private focused: number | null = null;
  private frame = 0;
  private want: { snap: Snapshot | null; ui: UI; words: Words; v: number } | null = null;
  private flashedV = 0;
  private unbind: (() => void) | null = null;
  /** Regions rewritten by the last draw (the bench and tests read it). */
  lastTouched = 0;

  constructor(el: HTMLElement, opts: BoardOptions) {
    this.el = el;
    this.opts = opts;
    this.svgEl = svg('svg', { class: 'map', role: 'group' });
    el.append(this.svgEl);
    this.svgEl.addEventListener('keydown', (e) => this.onKey(e));
    this.svgEl.addEventListener('focusin', (e) => {
      const id = (e.target as Element).getAttribute?.('data-region');
      if (id !== null && id !== undefined) this.rove(Number(id));
    });
  }

  get board(): BoardData | null {
    return this.data;
  }

  /** The board's drawing data (once per board key). */
  setBoard(data: BoardData): void {
    this.data = data;
    this.geo = new Map(data.regions.map((r) => [r.id, r]));
    this.drawing = build(data, this.svgEl);
    this.unbind?.();
    this.unbind = bindPointers({
      svg: this.svgEl, size: data, view: () => this.viewState,
      setView: (v) => this.setView(v),
      zoomAt: (u, f) => this.setView(zoomAt(this.viewState, u[0], u[1], f, data)),
      tap: (region) => {
        if (region !== null) {
          this.rove(region);
          this.opts.onTap(region);
        }
      },
    });
    this.viewState = FIT;
    this.setView(FIT);
    this.focused = null;
    this.rove(data.regions[0]?.id ?? 0);
  }

  /** Show this state (drawn in the next animation frame; several calls make one draw). */
  update(snap: Snapshot | null, ui: UI, words: Words, v: number): void {
    this.want = { snap, ui, words, v };
    if (!this.frame) this.frame = requestAnimationFrame(() => this.flush());
  }

  /** Draw now (tests and the first paint). */
  flush(): void {
    if (this.frame) cancelAnimationFrame(this.frame);
    this.frame = 0;
    const w = this.want;
    if (!w || !this.data || !this.drawing) return;
    const shows = showRegions(this.data, w.snap, w.ui, w.words);
    this.lastTouched = draw(this.drawing, shows, this.data, this.opts.spriteBase ?? '/sprites/');
    if (w.snap && w.v > this.flashedV) {
      if (this.flashedV > 0) flash(this.drawing, w.snap.changed);
      this.flashedV = w.v;
    }
    this.el.classList.toggle('busy', w.ui.pending !== null);
  }

  /** Draw every region again (a font arrived, the words changed). */
  redrawAll(): void {
    if (this.drawing) invalidate(this.drawing);
    if (this.want) this.update(this.want.snap, this.want.ui, this.want.words, this.want.v);
  }

  zoom(factor: number): void {
    if (!this.data) return;
    const f = this.focused !== null ? this.geo.get(this.focused) : undefined;
    const v = this.viewState;
    // around the focused region when it is in view, else the middle
    const at = f && this.focusedInView() ? [f.label[0] * v.s + v.x, f.label[1] * v.s + v.y]
      : [this.data.width / 2, this.data.height / 2];
    this.setView(zoomAt(v, at[0] ?? 0, at[1] ?? 0, factor, this.data));
  }

  resetView(): void {
    this.setView(FIT);
  }

  /** Focus a region (roving tabindex) and bring it into view. */
  focusRegion(id: number): void {
    this.rove(id);
    const el = this.drawing?.regions.get(id)?.area;
    el?.focus({ preventScroll: true });
    const g = this.geo.get(id);
    if (g && this.data) this.setView(reveal(this.viewState, g.label, this.data));
  }

  private focusedInView(): boolean {
    const g = this.focused !== null ? this.geo.get(this.focused) : undefined;
    if (!g || !this.data) return false;
    const v = this.viewState;
    const x = g.label[0] * v.s + v.x;
    const y = g.label[1] * v.s + v.y;
    return x >= 0 && y >= 0 && x <= this.data.width && y <= this.data.height;
  }

  private rove(id: number): void {
    if (id === this.focused || !this.drawing) return;
    const prev = this.focused !== null ? this.drawing.regions.get(this.focused) : undefined;
    prev?.area.setAttribute('tabindex', '-1');
    this.drawing.regions.get(id)?.area.setAttribute('tabindex', '0');
    this.focused = id;
  }

  private setView(v: View): void {
    if (!this.data || !this.drawing) return;
    this.viewState = clamp(v, this.data);
    this.drawing.viewport.setAttribute('transform', transform(this.viewState));
    this.el.classList.toggle('zoomed', this.viewState.s > 1.001);
  }

  private onKey(e: KeyboardEvent): void {
    const cmd = keyCommand(e.key);
    if (!cmd || e.altKey || e.ctrlKey || e.metaKey) return;
    e.preventDefault();
    switch (cmd.kind) {
      case 'step': {
        if (this.focused === null) return;
        const next = step(this.geo, this.focused, cmd.dir);
        if (next !== null) this.focusRegion(next);
        break;
      }
      case 'act':
        if (this.focused !== null) this.opts.onTap(this.focused);
        break;
      case 'zoom':
        this.zoom(cmd.factor);
        break;
      case 'reset':
        this.resetView();
        break;
      case 'escape':
        this.opts.onEscape();
        break;
    }
  }
}
