import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fill } from './index.js';

const dir = import.meta.dirname;
const load = (file: string) => JSON.parse(readFileSync(join(dir, file), 'utf8')) as Record<string, string>;
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
    for (const [key, text] of Object.entries(table)) {
      expect(text.trim(), `${file} ${key}`).not.toBe('');
      expect(placeholders(text), `${file} ${key}`).toEqual(placeholders(english[key]!));
    }
  });

  it('fills placeholders and leaves unknown ones visible', () => {
    expect(fill('{n} reviews of {shop} {x}', { n: 3, shop: 'Fiets & Co' })).toBe('3 reviews of Fiets & Co {x}');
  });
});
