import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

type Table = Record<string, string | Record<string, string>>;
const dir = import.meta.dirname;
const load = (file: string) => JSON.parse(readFileSync(join(dir, file), 'utf8')) as Table;
const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('shopper-facing text', () => {
  const english = load('en.json');
  const files = readdirSync(dir).filter((f) => f.endsWith('.json'));

  it('exists in all seven languages', () => {
    expect(files.sort()).toEqual(['de.json', 'en.json', 'es.json', 'fr.json', 'hr.json', 'it.json', 'nl.json']);
  });

  it.each(files)('%s has every English key, non-empty, with the same placeholders', (file) => {
    const table = load(file);
    expect(Object.keys(table).sort()).toEqual(Object.keys(english).sort());
    for (const [key, value] of Object.entries(table)) {
      const reference = english[key]!;
      const texts = typeof value === 'string' ? { '': value } : value;
      expect(typeof value, `${file} ${key}`).toBe(typeof reference);
      for (const [form, text] of Object.entries(texts)) {
        expect(text.trim(), `${file} ${key} ${form}`).not.toBe('');
        expect(placeholders(text), `${file} ${key} ${form}`).toEqual(
          placeholders(typeof reference === 'string' ? reference : reference.other!),
        );
      }
    }
  });

  it.each(files)('%s writes each plural text in exactly the CLDR categories of its language', (file) => {
    const categories = new Intl.PluralRules(file.slice(0, 2)).resolvedOptions().pluralCategories.slice().sort();
    const plurals = Object.entries(load(file)).filter(([, value]) => typeof value !== 'string');
    expect(plurals.map(([key]) => key).sort()).toEqual(['member', 'reviews', 'stars']);
    for (const [key, forms] of plurals) expect(Object.keys(forms).sort(), `${file} ${key}`).toEqual(categories);
  });
});
