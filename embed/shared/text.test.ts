import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fill, pluralOf, type PluralForms } from './text.js';

const strings = (lang: string) =>
  JSON.parse(readFileSync(join(import.meta.dirname, '../strings', `${lang}.json`), 'utf8'));

describe('fill', () => {
  it('fills placeholders and leaves unknown ones visible', () => {
    expect(fill('{n} reviews of {shop} {x}', { n: 3, shop: 'Fiets & Co' })).toBe('3 reviews of Fiets & Co {x}');
  });
});

describe('plural forms', () => {
  it('writes Croatian counts in all three forms, as the widget does', () => {
    const hr = strings('hr').reviews as PluralForms;
    const rules = new Intl.PluralRules('hr');
    expect([1, 2, 4, 5, 11, 21, 22, 25].map((n) => fill(pluralOf(hr, rules, n), { n }))).toEqual([
      '1 recenzija',
      '2 recenzije',
      '4 recenzije',
      '5 recenzija',
      '11 recenzija',
      '21 recenzija',
      '22 recenzije',
      '25 recenzija',
    ]);
  });

  it('falls back to the other form for a category a language does not write', () => {
    expect(pluralOf({ one: 'one', other: 'other' }, new Intl.PluralRules('fr'), 1_000_000)).toBe('other');
    expect(pluralOf({ one: '{n} review', other: '{n} reviews' }, new Intl.PluralRules('en'), 0)).toBe('{n} reviews');
  });
});
