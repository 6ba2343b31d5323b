import { describe, expect, it } from 'vitest';
import { capital, format, normalize, pluralCategory, Words } from '../src/i18n';

describe('format', () => {
  it('fills named placeholders and leaves unknown ones', () => {
    expect(format('Region {id}, {x}', { id: 12 })).toBe('Region 12, {x}');
    expect(format('{a}{a}', { a: 'x' })).toBe('xx');
  });
  it('does not read inherited properties as values', () => {
    expect(format('{toString}', {})).toBe('{toString}');
  });
});

describe('plural categories (CLDR, whole numbers)', () => {
  it('follows one/other for most of the languages', () => {
    for (const lang of ['en', 'da', 'nl', 'fi', 'hu', 'no', 'sv']) {
      expect([0, 1, 2, 21].map((n) => pluralCategory(lang, n))).toEqual(['other', 'one', 'other', 'other']);
    }
  });
  it('Icelandic: one for 1, 21, 31 but not 11', () => {
    expect([1, 11, 21, 111, 2].map((n) => pluralCategory('is', n))).toEqual(['one', 'other', 'one', 'other', 'other']);
  });
  it('Thai has one form', () => {
    expect([0, 1, 2].map((n) => pluralCategory('th', n))).toEqual(['other', 'other', 'other']);
  });
});

describe('Words', () => {
  const w = new Words({
    lang: 'is', words: { 'web.tokens.one': '{n} tákn (eitt)', 'web.tokens.other': '{n} tákn' },
    races: { Orcs: 'Orkar' }, abbr: { Orcs: 'Ork' }, powers: { Hill: 'Hæð' },
  });
  it('picks the counted key by the language rule', () => {
    expect(w.n('web.tokens', 21)).toBe('21 tákn (eitt)');
    expect(w.n('web.tokens', 11)).toBe('11 tákn');
  });
  it('falls back to the bundled English for a missing key, and to the key itself', () => {
    expect(w.t('web.undo')).toBe('Undo');
    expect(w.t('web.no.such.key')).toBe('web.no.such.key');
  });
  it('names races and combos, unknown ids as themselves', () => {
    expect(w.combo('Orcs', 'Hill')).toBe('Hæð Orkar');
    expect(w.abbr('Orcs')).toBe('Ork');
    expect(w.abbr('Giants')).toBe('Gia');
    expect(w.race(null)).toBe('?');
  });
  it('knows whether it came from the server', () => {
    expect(w.fetched).toBe(true);
    expect(new Words().fetched).toBe(false);
  });
});

describe('normalize and capital', () => {
  it('maps tags and Discord locales to our codes', () => {
    expect(normalize('sv-SE')).toBe('sv');
    expect(normalize('nb')).toBe('no');
    expect(normalize('en-GB')).toBe('en');
    expect(normalize('ja')).toBe('en');
    expect(normalize(undefined)).toBe('en');
  });
  it('upper-cases the first letter only', () => {
    expect(capital('conquer for 3 tokens', 'en')).toBe('Conquer for 3 tokens');
    expect(capital('ยึด', 'th')).toBe('ยึด');
  });
});
