// The app's pure parts: its addresses, the choice of language, and the completeness of the Dutch text.
import { describe, expect, it } from 'vitest';
import { pagePath, parseRoute } from './route.js';
import { chooseLanguage } from './i18n.js';
import { asPage, query } from './api.js';
import { filterQuery, filtersOf, NO_FILTERS } from './review-filters.js';
import { en } from './strings/en.js';
import { nl } from './strings/nl.js';
import { previewAddress } from './widget-preview.js';
import { DEFAULTS } from '../embed/shared/settings.js';

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

describe('API helpers', () => {
  it('writes only the filters that are set', () => {
    expect(query({ q: '', rating: '4', unread: true, status: undefined, from: null, page: 2, reply: false })).toBe(
      '?rating=4&unread=1&page=2',
    );
    expect(query({ q: 'a&b=c' })).toBe('?q=a%26b%3Dc');
    expect(query({})).toBe('');
  });

  it('reads a list answer, and a bare array as one page', () => {
    expect(asPage({ items: [1, 2], total: 7, page: 2, page_size: 2 })).toEqual({
      items: [1, 2],
      total: 7,
      page: 2,
      page_size: 2,
    });
    expect(asPage([1, 2, 3])).toEqual({ items: [1, 2, 3], total: 3, page: 1, page_size: 3 });
    expect(asPage({ entries: [1], total: 1 }, 'entries').items).toEqual([1]);
  });
});

describe('reviews filters in the address', () => {
  it('reads what the API accepts and drops the rest', () => {
    const { filters, page } = filtersOf(
      '?shop=2&rating=5&status=quarantined&language=nl&reply=with&unread=1&from=2026-01-01&to=2026-02-01&q=late&page=3',
    );
    expect(filters).toEqual({
      q: 'late',
      rating: '5',
      status: 'quarantined',
      language: 'nl',
      reply: 'with',
      unread: true,
      from: '2026-01-01',
      to: '2026-02-01',
    });
    expect(page).toBe(3);
    expect(filtersOf('?rating=9&status=hidden&language=xx&reply=maybe&from=yesterday&page=-4')).toEqual({
      filters: NO_FILTERS,
      page: 1,
    });
  });

  it('writes them back as they were read', () => {
    const search = '?q=late&rating=5&unread=1&page=2';
    const { filters, page } = filtersOf(search);
    expect(filterQuery(filters, page)).toBe(search);
    expect(filterQuery(NO_FILTERS, 1)).toBe('');
  });
});

describe('the widget preview', () => {
  it('passes every setting of the form as the page global a shop would write, the default language as none', () => {
    const url = previewAddress('https://reviews.example/webshops/7/sidebar-preview', '_brand_', {
      ...DEFAULTS,
      position: 'right',
      top: ' 40% ',
      tooltip: false,
    });
    const query = new URL(url).searchParams;
    expect(url.startsWith('https://reviews.example/webshops/7/sidebar-preview?')).toBe(true);
    expect(Object.fromEntries(query)).toEqual({
      _brand_sidebar: 'true',
      _brand_sidebar_position: 'right',
      _brand_sidebar_top: '40%',
      _brand_sidebar_theme: 'dark',
      _brand_mobile: 'top_bar',
      _brand_mobile_tab: 'left',
      _brand_tooltip: 'false',
    });
    expect(
      new URL(previewAddress('https://x.example/p', '_b_', { ...DEFAULTS, language: 'nld' })).searchParams.get(
        '_b_language',
      ),
    ).toBe('nld');
  });
});
