// The page's words: `{name}` placeholders only; counts pick `<key>.one` or `<key>.other` by
// the language's plural rule (CLDR, whole numbers), as i18n/__init__.py does for the bot.
// English ships in the bundle (the words before sign-in, and any key a language lacks);
// the others come from GET /api/i18n/{lang}.

import english from '../../i18n/catalogs/web/en.json';
import type { WordsAnswer } from './protocol';

export const LANGUAGES = ['en', 'da', 'nl', 'fi', 'hu', 'is', 'no', 'sv', 'th'] as const;

export type Params = Record<string, string | number>;

/** Our code for a language tag or Discord locale; English for anything unknown. */
export function normalize(tag: string | null | undefined): string {
  if (!tag) return 'en';
  const low = tag.toLowerCase();
  if ((LANGUAGES as readonly string[]).includes(low)) return low;
  const base = low.split(/[-_]/)[0] ?? '';
  if (base === 'nb' || base === 'nn') return 'no';
  return (LANGUAGES as readonly string[]).includes(base) ? base : 'en';
}

export function pluralCategory(lang: string, n: number): 'one' | 'other' {
  const i = Math.abs(Math.trunc(n));
  if (lang === 'th') return 'other';
  if (lang === 'is') return i % 10 === 1 && i % 100 !== 11 ? 'one' : 'other';
  return i === 1 ? 'one' : 'other';
}

/** Fill `{name}` placeholders; a missing value leaves its placeholder as it was. */
export function format(template: string, params: Params = {}): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.prototype.hasOwnProperty.call(params, name) ? String(params[name]) : whole);
}

/** The first letter upper-cased, in the language's way (a chooser's button from a phrase). */
export function capital(text: string, lang: string): string {
  return text ? text.charAt(0).toLocaleUpperCase(lang) + text.slice(1) : text;
}

type Names = Record<string, string>;

/** The bundled English words (the catalog's notes left out). */
const ENGLISH: Names = Object.fromEntries(Object.entries(english as Record<string, unknown>)
  .filter((e): e is [string, string] => typeof e[1] === 'string'));

export class Words {
  readonly lang: string;
  /** Fetched from the server (with the game's names), not just the bundled English. */
  readonly fetched: boolean;
  private readonly words: Names;
  private readonly names: { race: Names; abbr: Names; power: Names; terrain: Names; piece: Names };

  constructor(answer?: WordsAnswer) {
    this.lang = normalize(answer?.lang ?? 'en');
    this.fetched = !!answer;
    this.words = { ...ENGLISH, ...(answer?.words ?? {}) };
    this.names = {
      race: answer?.races ?? {}, abbr: answer?.abbr ?? {}, power: answer?.powers ?? {},
      terrain: answer?.terrain ?? {}, piece: answer?.pieces ?? {},
    };
  }

  has(key: string): boolean {
    return key in this.words;
  }

  /** A word of the page; an unknown key is shown as itself (never throws). */
  t(key: string, params?: Params): string {
    return format(this.words[key] ?? key, params);
  }

  /** A counted phrase: `<key>.one` / `<key>.other`, with `{n}` set to the count. */
  n(key: string, n: number, params: Params = {}): string {
    return this.t(`${key}.${pluralCategory(this.lang, n)}`, { n, ...params });
  }

  race(id: string | null | undefined): string {
    return id ? this.names.race[id] ?? id : '?';
  }

  /** The race's short name on map tags (the pictures' abbreviation). */
  abbr(id: string | null | undefined): string {
    return id ? this.names.abbr[id] ?? id.slice(0, 3) : '?';
  }

  power(id: string | null | undefined): string {
    return id ? this.names.power[id] ?? id : '';
  }

  terrain(id: string): string {
    return this.names.terrain[id] ?? id;
  }

  piece(id: string): string {
    return this.names.piece[id] ?? id.replace(/_/g, ' ');
  }

  /** "Hill Orcs", in the language's order. */
  combo(race: string | null | undefined, power: string | null | undefined): string {
    if (!power) return this.race(race);
    return this.t('web.combo', { power: this.power(power), race: this.race(race) });
  }

  /** A list joined the language's way ("a, b, c"). */
  list(items: string[]): string {
    return items.join(this.t('web.sep'));
  }
}
