// The product block's rules, as small pure functions (block.ts does the DOM and the requests): which product a block
// shows, the fragment's address, which product gets JSON-LD on the host page, the "page 2 of 5" announcement, and the
// votes this browser remembers.
import type { Lang } from '../shared/language.js';

/** As long as a product id, SKU or GTIN may be in the order data (server/reviews/admin.ts). */
const PRODUCT_MAX = 200;

/** The product a block shows: its own `data-product`, else the page's `_<brand>_product`; '' when there is none. */
export function productOf(own: string | undefined, global: unknown): string {
  const given = own?.trim() || (typeof global === 'string' || typeof global === 'number' ? String(global).trim() : '');
  return given.length <= PRODUCT_MAX ? given : '';
}

export interface Block {
  base: string;
  shopId: number;
  product: string;
  lang: Lang;
  theme: 'light' | 'dark';
}

/**
 * The fragment of a block: what the block is (product, language, theme) first, then the shopper's navigation (the
 * `data-query` of a link, or the filter form's fields), which cannot change what the block is.
 */
export function fragmentUrl(block: Block, navigation = ''): string {
  const fixed = { product: block.product, lang: block.lang, theme: block.theme };
  const query = new URLSearchParams(fixed);
  // (A name may repeat: the filter form sends `stars=1&stars=2`.)
  for (const [name, value] of new URLSearchParams(navigation)) {
    if (!(name in fixed)) query.append(name, value);
  }
  return `${block.base}/webshops/${block.shopId}/products/reviews.html?${query}`;
}

export function jsonLdUrl(block: Pick<Block, 'base' | 'shopId' | 'product'>): string {
  return `${block.base}/webshops/${block.shopId}/products/jsonld?${new URLSearchParams({ product: block.product })}`;
}

/**
 * The product whose JSON-LD the host page gets: only a page about one product (Google's product rich results are for
 * such pages, not for lists of products), and not when a block of it opts out with `data-jsonld="false"` (a shop
 * whose platform already prints our rating in its own Product markup, from `&part=rating`).
 */
export function jsonLdProduct(blocks: readonly { product: string; jsonld: string | undefined }[]): string | undefined {
  const products = new Set(blocks.map((b) => b.product).filter(Boolean));
  if (products.size !== 1 || blocks.some((b) => b.jsonld === 'false')) return undefined;
  return [...products][0];
}

/** A JSON-LD body worth adding: one JSON object or array (the text is kept as the server escaped it). */
export function isJsonLd(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null;
  } catch {
    return false;
  }
}

const PAGE: Record<Lang, [string, string]> = {
  nl: ['Pagina', 'van'],
  en: ['Page', 'of'],
  de: ['Seite', 'von'],
  fr: ['Page', 'sur'],
  es: ['Página', 'de'],
  it: ['Pagina', 'di'],
  hr: ['Stranica', 'od'],
};

/**
 * What a screen reader is told, politely, after the shopper paged or filtered: the block's name and what the
 * fragment says about the results (already in the block's language), then where they are.
 */
export function announcement(
  lang: Lang,
  texts: readonly string[],
  page: string | undefined,
  pages: string | undefined,
): string {
  const [word, of] = PAGE[lang];
  const where = page && pages ? `${word} ${page} ${of} ${pages}` : '';
  return [...texts.map((t) => t.trim().replace(/[.\s]+$/, '')), where].filter(Boolean).join('. ');
}

/**
 * The reviews this browser found helpful, one storage key on the shop's origin (the shop page on ours keeps its own,
 * server/pages/browser/review-form.ts): a vote is sent once per browser, and the button shows it as pressed.
 */
export function votesOf(stored: string | null): number[] {
  return (stored ?? '')
    .split(',')
    .map(Number)
    .filter((id) => Number.isSafeInteger(id) && id > 0);
}

/** The stored list with one more vote; the oldest are dropped past 200, to keep the key small. */
export function withVote(stored: string | null, id: number): string {
  const votes = votesOf(stored).filter((v) => v !== id);
  return [...votes, id].slice(-200).join(',');
}
