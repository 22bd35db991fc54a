// Plumbing of the server-rendered pages: JSON-LD that cannot end its <script> element, the country list of the
// form, and the response headers (a strict CSP; the token in a URL never leaks through Referer or caches).
import type { Context } from 'koa';
import type { Language } from '../languages.js';

/** JSON for a `<script type="application/ld+json">`: `<`, `>` and `&` escaped, so `</script>` in a name is inert. */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

export interface ShopForJsonLd {
  name: string;
  url: string;
  logo: string;
}

/** schema.org Organization with its AggregateRating on the 1–10 scale (left out while there is nothing to rate). */
export function shopJsonLd(
  shop: ShopForJsonLd,
  pageUrl: string,
  score: number,
  count: number,
): Record<string, unknown> {
  return {
    '@context': 'https://schema.org',
    '@type': 'Organization',
    '@id': `${pageUrl}#organization`,
    name: shop.name,
    url: shop.url,
    ...(shop.logo ? { logo: shop.logo } : {}),
    ...(count > 0
      ? {
          aggregateRating: {
            '@type': 'AggregateRating',
            ratingValue: score,
            bestRating: 10,
            worstRating: 1,
            ratingCount: count,
          },
        }
      : {}),
  };
}

/** Countries a reviewer can choose (Europe, where the shops are, and the larger English-speaking markets). */
export const COUNTRIES = [
  'AD',
  'AL',
  'AT',
  'AU',
  'BA',
  'BE',
  'BG',
  'CA',
  'CH',
  'CY',
  'CZ',
  'DE',
  'DK',
  'EE',
  'ES',
  'FI',
  'FR',
  'GB',
  'GR',
  'HR',
  'HU',
  'IE',
  'IS',
  'IT',
  'LI',
  'LT',
  'LU',
  'LV',
  'MC',
  'ME',
  'MK',
  'MT',
  'NL',
  'NO',
  'NZ',
  'PL',
  'PT',
  'RO',
  'RS',
  'SE',
  'SI',
  'SK',
  'SM',
  'TR',
  'UA',
  'US',
  'XK',
] as const;

const countryLists = new Map<Language, { code: string; name: string }[]>();

/** The countries with their names in the page's language, sorted as that language sorts. */
export function countryOptions(language: Language): { code: string; name: string }[] {
  let list = countryLists.get(language);
  if (!list) {
    const names = new Intl.DisplayNames([language], { type: 'region' });
    list = COUNTRIES.map((code) => ({ code, name: names.of(code) ?? code })).sort((a, b) =>
      a.name.localeCompare(b.name, language),
    );
    countryLists.set(language, list);
  }
  return list;
}

interface SendOptions {
  /** The page carries a secret in its URL: never cached, indexed or sent on as Referer. */
  secret: boolean;
  styleHash: string;
  /** The one script the pages may run (the review form's, server/pages/browser/review-form.ts). */
  scriptHash: string;
}

export function sendHtml(ctx: Context, status: number, html: string, options: SendOptions): void {
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.set(
    'Content-Security-Policy',
    `default-src 'none'; script-src ${options.scriptHash}; style-src ${options.styleHash}; img-src 'self' https: data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'`,
  );
  ctx.set('Referrer-Policy', options.secret ? 'no-referrer' : 'strict-origin-when-cross-origin');
  ctx.set('Cache-Control', options.secret ? 'no-store' : 'public, max-age=60');
  if (options.secret) ctx.set('X-Robots-Tag', 'noindex, nofollow');
  ctx.body = html;
}
