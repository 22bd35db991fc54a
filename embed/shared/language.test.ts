import { describe, expect, it } from 'vitest';
import { detectLanguage, langFromUrl, langOf } from './language.js';

const page = (href: string, htmlLang = '', languages: string[] = []) => ({ url: new URL(href), htmlLang, languages });

describe('language', () => {
  it('maps ISO 639-1, 639-3 and regional tags to our seven languages', () => {
    expect(['nl', 'nld', 'nl-BE', 'NL_nl', 'eng', 'de-AT', 'fra', 'spa', 'ita', 'hrv'].map(langOf)).toEqual([
      'nl',
      'nl',
      'nl',
      'nl',
      'en',
      'de',
      'fr',
      'es',
      'it',
      'hr',
    ]);
    expect(['pt', 'zh-CN', '', null, undefined].map(langOf)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('takes an ISO 639-3 setting as it is', () => {
    expect(detectLanguage('deu', page('https://shop.example/fr/'), 'nl')).toBe('de');
    expect(detectLanguage('hrv', page('https://shop.example/'), 'nl')).toBe('hr');
  });

  it('url: reads ?lang=, then the first path segment, then a language subdomain', () => {
    expect(langFromUrl(new URL('https://shop.example/de/fahrrad?lang=fr'))).toBe('fr');
    expect(langFromUrl(new URL('https://shop.example/de/fahrrad'))).toBe('de');
    expect(langFromUrl(new URL('https://shop.example/nl-be/fietsen'))).toBe('nl');
    expect(langFromUrl(new URL('https://shop.example/it'))).toBe('it');
    expect(langFromUrl(new URL('https://es.shop.example/bicis'))).toBe('es');
    // A two-letter path that is no language, a two-letter domain name, and a longer first segment are not read.
    expect(langFromUrl(new URL('https://shop.example/xx/'))).toBeUndefined();
    expect(langFromUrl(new URL('https://de.example/'))).toBeUndefined();
    expect(langFromUrl(new URL('https://shop.example/deals/'))).toBeUndefined();
    expect(detectLanguage('url', page('https://shop.example/products'), 'nl')).toBe('nl');
  });

  it('html: reads the <html lang> attribute', () => {
    expect(detectLanguage('html', page('https://shop.example/', 'fr-BE'), 'nl')).toBe('fr');
    expect(detectLanguage('html', page('https://shop.example/', ''), 'de')).toBe('de');
  });

  it("browser: the first of the visitor's languages that we speak", () => {
    expect(detectLanguage('browser', page('https://shop.example/', '', ['pt-BR', 'it-IT', 'en']), 'nl')).toBe('it');
    expect(detectLanguage('browser', page('https://shop.example/', '', ['ja']), 'nl')).toBe('nl');
  });

  it("otherwise the shop's default, and English when even that is unknown", () => {
    expect(detectLanguage('', page('https://shop.example/de/'), 'hr')).toBe('hr');
    expect(detectLanguage('', page('https://shop.example/'), '')).toBe('en');
  });
});
