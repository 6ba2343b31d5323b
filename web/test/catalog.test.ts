// The page's words: every key the code uses is in the English catalog, counted keys have both
// forms, and every language has the same keys with the same placeholders.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../src/i18n';

const CATALOGS = join(__dirname, '..', '..', 'i18n', 'catalogs', 'web');
const SRC = join(__dirname, '..', 'src');

function catalog(lang: string): Record<string, string> {
  const raw = JSON.parse(readFileSync(join(CATALOGS, `${lang}.json`), 'utf8')) as Record<string, unknown>;
  return Object.fromEntries(Object.entries(raw).filter(([k]) => !k.startsWith('_'))) as Record<string, string>;
}

function sources(dir: string): string {
  return readdirSync(dir, { withFileTypes: true }).map((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? readFileSync(join(dir, e.name), 'utf8') : '',
  ).join('\n');
}

const placeholders = (m: string) => [...m.matchAll(/\{(\w+)\}/g)].map((x) => x[1]).sort();
const en = catalog('en');

describe('the web catalogs', () => {
  it('are the nine languages', () => {
    expect(readdirSync(CATALOGS).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5)).sort())
      .toEqual([...LANGUAGES].sort());
  });
  it('only plain {name} placeholders, keys starting web.', () => {
    for (const lang of LANGUAGES) {
      for (const [key, message] of Object.entries(catalog(lang))) {
        expect(key.startsWith('web.'), `${lang} ${key}`).toBe(true);
        expect(message.replace(/\{\w+\}/g, ''), `${lang} ${key}`).not.toMatch(/[{}]/);
      }
    }
  });
  it('every language has the same keys and placeholders as English', () => {
    for (const lang of LANGUAGES) {
      const cat = catalog(lang);
      expect(Object.keys(cat).sort(), lang).toEqual(Object.keys(en).sort());
      for (const key of Object.keys(en)) expect(placeholders(cat[key] ?? ''), `${lang} ${key}`).toEqual(placeholders(en[key]!));
    }
  });
  it('every word the code names is in English; counted ones in both forms', () => {
    const code = sources(SRC);
    const plain = new Set([...code.matchAll(/\.t\('(web\.[\w.]+)'/g)].map((m) => m[1]!));
    const counted = new Set([...code.matchAll(/\.n\('(web\.[\w.]+)'/g)].map((m) => m[1]!));
    for (const m of code.matchAll(/word: '(web\.[\w.]+)'(, n:)?/g)) (m[2] ? counted : plain).add(m[1]!);
    expect(plain.size + counted.size).toBeGreaterThan(40);
    for (const key of plain) expect(en, key).toHaveProperty([key]);
    for (const key of counted) {
      expect(en, key).toHaveProperty([`${key}.one`]);
      expect(en, key).toHaveProperty([`${key}.other`]);
    }
    for (const stage of ['pick', 'conquest', 'redeploy', 'survivors', 'finished', 'lobby']) {
      expect(en).toHaveProperty([`web.stage.${stage}`]);
    }
    for (const verb of ['reinforce', 'dragon', 'enchant']) expect(en).toHaveProperty([`web.verb.${verb}`]);
    for (const verb of ['conquer', 'conquer_decline']) expect(en).toHaveProperty([`web.verb.${verb}.other`]);
  });
});
