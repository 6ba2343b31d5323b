// Making HTML elements. Words (names, lines, refusals) always go in as text, never as markup.

type Attrs = Record<string, string | number | boolean | null | undefined>;
type Child = Node | string | null | undefined | false;

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {},
  ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    el.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    el.append(typeof c === 'string' ? document.createTextNode(c) : c);
  }
  return el;
}

export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const el = document.getElementById(id);
  if (!el) throw new Error(`#${id} is missing from the page`);
  return el as T;
}

/** Set text only when it differs (no needless layout work, no re-announcing). */
export function setText(el: Element, text: string): void {
  if (el.textContent !== text) el.textContent = text;
}

/** Replace children only when the key of what they show has changed. */
export class Keyed {
  private key = '\u0000';
  constructor(readonly el: HTMLElement) {}

  set(key: string, make: () => Child[]): boolean {
    if (key === this.key) return false;
    this.key = key;
    this.el.replaceChildren(...make().filter((c): c is Node | string => !!c));
    return true;
  }

  forget(): void {
    this.key = '\u0000';
  }
}
