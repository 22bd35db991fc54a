// Which of the seven languages the embed speaks on this page (`_service_language`): an ISO 639-3 code, or detected
// from the page address, the `<html lang>` attribute or the visitor's browser; otherwise the shop's default.

export type Lang = 'nl' | 'en' | 'de' | 'fr' | 'es' | 'it' | 'hr';

// Pairs of ISO 639-1 and 639-3 codes: an even index is the two-letter code of the pair.
const CODES = 'nl nld en eng de deu fr fra es spa it ita hr hrv'.split(' ');

/** `de`, `de-DE`, `de_at`, `deu` → `de`; anything else → undefined. */
export function langOf(tag: string | null | undefined): Lang | undefined {
  const i = CODES.indexOf(String(tag).trim().toLowerCase().split(/[-_]/)[0]!);
  return i < 0 ? undefined : (CODES[i & ~1] as Lang);
}

/** From the address: `?lang=`, then the first path segment (`/de/`, `/de-at/`), then a subdomain (`de.shop.example`). */
export function langFromUrl(url: Address): Lang | undefined {
  const segment = /^\/([a-z]{2})([-_/]|$)/i.exec(url.pathname)?.[1];
  const subdomain = /^([a-z]{2})\.[^.]+\.[^.]+/i.exec(url.hostname)?.[1];
  return langOf(new URLSearchParams(url.search).get('lang')) ?? langOf(segment) ?? langOf(subdomain);
}

/** A URL, or the page's own `location`. */
type Address = Pick<URL, 'pathname' | 'hostname' | 'search'>;

export interface PageFacts {
  url: Address;
  htmlLang: string;
  languages: readonly string[];
}

export function detectLanguage(setting: string, page: PageFacts, shopDefault: string): Lang {
  const found =
    setting === 'url'
      ? langFromUrl(page.url)
      : setting === 'html'
        ? langOf(page.htmlLang)
        : setting === 'browser'
          ? page.languages.map(langOf).find(Boolean)
          : langOf(setting);
  return found ?? langOf(shopDefault) ?? 'en';
}
