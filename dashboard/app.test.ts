// The app's pure parts: its addresses, the choice of language, and the completeness of the Dutch text.
import { describe, expect, it } from 'vitest';
import { pagePath, parseRoute } from './route.js';
import { chooseLanguage } from './i18n.js';
import { en } from './strings/en.js';
import { nl } from './strings/nl.js';

describe('addresses', () => {
  it('reads the page and the shop from the address', () => {
    expect(parseRoute('/dashboard/', '')).toEqual({ page: 'overview', shopId: null });
    expect(parseRoute('/dashboard', '')).toEqual({ page: 'overview', shopId: null });
    expect(parseRoute('/dashboard/reviews', '?shop=12')).toEqual({ page: 'reviews', shopId: 12 });
    expect(parseRoute('/dashboard/team/', '')).toEqual({ page: 'team', shopId: null });
    expect(parseRoute('/dashboard/account', '?shop=x')).toEqual({ page: 'account', shopId: null });
    expect(parseRoute('/dashboard/nothing', '').page).toBe('not_found');
    expect(parseRoute('/dashboard/reviews/7', '').page).toBe('not_found');
  });

  it('writes the overview as /dashboard/ and names the shop only when asked', () => {
    expect(pagePath('overview', null)).toBe('/dashboard/');
    expect(pagePath('widget', 3)).toBe('/dashboard/widget?shop=3');
  });
});

describe('language', () => {
  it('keeps a remembered choice, else takes the browser’s first known language, else English', () => {
    expect(chooseLanguage('nl', ['en-GB'])).toBe('nl');
    expect(chooseLanguage(null, ['de-DE', 'nl-BE', 'en'])).toBe('nl');
    expect(chooseLanguage('xx', ['fr'])).toBe('en');
    expect(chooseLanguage(null, [])).toBe('en');
  });

  it('has every English text in Dutch, with the same placeholders', () => {
    const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    expect(Object.keys(nl).sort()).toEqual(Object.keys(en).sort());
    for (const [key, text] of Object.entries(en)) {
      const dutch = nl[key as keyof typeof en];
      expect(dutch.trim(), key).not.toBe('');
      expect(placeholders(dutch), key).toEqual(placeholders(text));
    }
  });
});
