// From a platform's row to what we store: the rating on our scale, the dates, the product, the review's identity
// (for duplicates), or the problem that skips the row. Pure: the clock is a parameter.
import { createHash } from 'node:crypto';
import { isValidEmail, normalizeEmail } from '../email.js';
import { parseDate, type DateOrder } from './dates.js';
import type { ReviewProduct } from '../reviews/model.js';
import type { SourceProduct, SourceRow } from './formats.js';

/** Field limits of the review (those of the operator's single import, server/reviews/admin.ts). */
const LIMITS = { text: 10_000, title: 500, name: 200, reply: 10_000, product: 500, id: 200 } as const;
/** Clocks of the platform a file comes from may run a little ahead of ours. */
const FUTURE_SLACK_MS = 5 * 60_000;

export interface ImportedProduct {
  /** The file's product id, else its SKU, GTIN or handle: what the product surfaces find it by. */
  external_id: string;
  sku: string;
  gtin: string;
  handle: string;
  name: string;
  /** http(s) only; '' otherwise. */
  url: string;
  image_url: string;
  brand: string;
  mpn: string;
}

/** One review read from the file, ready to be written. */
export interface ImportItem {
  line: number;
  kind: 'store' | 'product';
  /** The review's identity in this shop: the platform and its id, or a hash of date, name and text. */
  key: string;
  sourceId: string;
  rating: number;
  title: string;
  text: string;
  name: string;
  /** Kept only so that an erasure request finds it: never shown, never written to. */
  email: string;
  country: string;
  language: string;
  date: Date;
  experienceDate: Date | null;
  held: boolean;
  sourceStatus: string;
  reply: { text: string; date: Date } | null;
  order: string;
  incentivised: boolean;
  sourceVerified: boolean;
  photos: string[];
  product: ImportedProduct | null;
  /** Our own export: the platform the review was first imported from ('' otherwise: the file's platform). */
  importedFrom: string;
  /** Our own export: the products a store review names. */
  products: ReviewProduct[];
}

export interface RowProblem {
  line: number;
  reason: string;
}

/**
 * The rating on our scale. Every platform read here rates 1 to 5 stars, our stored scale (the spec's 1–10 averages
 * are twice the mean); a whole number, written `4`, `4.0` or `4,0`. Half stars and other scales are not guessed at.
 */
export function ratingOf(raw: string): number | undefined {
  const m = /^\s*([1-5])(?:[.,]0+)?\s*$/.exec(raw);
  return m ? Number(m[1]) : undefined;
}

const httpUrl = (raw: string): string => {
  const value = raw.trim();
  if (value.length > 2000) return '';
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : '';
  } catch {
    return '';
  }
};

const clip = (value: string, max: number) => value.trim().slice(0, max);

function toProduct(p: SourceProduct): ImportedProduct | undefined {
  const id = [p.id, p.sku, p.gtin, p.handle].map((v) => v.trim()).find(Boolean);
  if (!id) return undefined;
  return {
    external_id: clip(id, LIMITS.id),
    sku: clip(p.sku, LIMITS.id),
    gtin: clip(p.gtin, 50),
    handle: clip(p.handle, LIMITS.id),
    name: clip(p.name, LIMITS.product),
    url: httpUrl(p.url),
    image_url: httpUrl(p.imageUrl),
    brand: clip(p.brand, LIMITS.id),
    mpn: clip(p.mpn, LIMITS.id),
  };
}

const text = (value: unknown, max: number): string => (typeof value === 'string' ? clip(value, max) : '');

/** Our own export's `products` (JSON): each a product of the review as the shop named it; undefined when malformed. */
function reviewProductsOf(value: unknown): ReviewProduct[] | undefined {
  if (!Array.isArray(value) || value.length > 100) return undefined;
  const products: ReviewProduct[] = [];
  for (const p of value as unknown[]) {
    if (typeof p !== 'object' || p === null) return undefined;
    const o = p as Record<string, unknown>;
    const id = text(o.id, LIMITS.id);
    if (!id) return undefined;
    const rating = typeof o.rating === 'number' && Number.isInteger(o.rating) && o.rating >= 1 && o.rating <= 5;
    products.push({
      external_id: id,
      name: text(o.name, LIMITS.product),
      url: httpUrl(text(o.url, 2000)),
      image_url: httpUrl(text(o.image_url, 2000)),
      sku: text(o.sku, LIMITS.id),
      gtin: text(o.gtin, 50),
      mpn: text(o.mpn, LIMITS.id),
      brand: text(o.brand, LIMITS.id),
      rating: rating ? (o.rating as number) : null,
      content: text(o.comment, LIMITS.text),
    });
  }
  return products;
}

/** The review's identity: the platform's id when the file has one, else a hash of its date, name and text. */
export function identityOf(
  platform: string,
  row: { sourceId: string; date: Date; name: string; text: string },
): string {
  const slug = platform.toLowerCase().replace(/[^a-z0-9]+/g, '');
  if (row.sourceId.trim()) return `${slug}:id:${row.sourceId.trim()}`;
  const digest = createHash('sha256')
    .update(`${row.date.toISOString()}\n${row.name.trim()}\n${row.text.trim()}`)
    .digest('hex')
    .slice(0, 32);
  return `${slug}:hash:${digest}`;
}

/** Reads a row: the review to import, or why it is skipped. */
export function readRow(
  row: SourceRow,
  ctx: { platform: string; order: DateOrder; now: Date },
): ImportItem | RowProblem {
  const problem = (reason: string): RowProblem => ({ line: row.line, reason });
  if (row.skip) return problem(row.skip);
  const rating = ratingOf(row.rating);
  if (rating === undefined) {
    return problem(
      row.rating.trim() ? `rating "${row.rating.trim().slice(0, 20)}" is not a whole number from 1 to 5` : 'no rating',
    );
  }
  if (!row.date.trim()) return problem('no date');
  const date = parseDate(row.date, ctx.order);
  if (!date) return problem(`date "${row.date.trim().slice(0, 40)}" cannot be read`);
  if (date.getTime() > ctx.now.getTime() + FUTURE_SLACK_MS) return problem('date is in the future');
  if (row.text.trim().length > LIMITS.text)
    return problem(`text longer than ${LIMITS.text.toLocaleString('en')} characters`);
  let product: ImportedProduct | null = null;
  if (row.kind === 'product') {
    product = row.product ? (toProduct(row.product) ?? null) : null;
    if (!product) return problem('a product review without a product id, SKU, GTIN or handle');
  }
  const products = reviewProductsOf(row.products ?? []);
  if (!products) return problem('products: not a JSON list of products with an id');
  const email = normalizeEmail(row.email).slice(0, 320);
  const replyDate = row.reply ? (parseDate(row.reply.date, ctx.order) ?? date) : null;
  const name = clip(row.name, LIMITS.name);
  const text = row.text.trim();
  return {
    line: row.line,
    kind: row.kind,
    key: identityOf(ctx.platform, { sourceId: row.sourceId, date, name, text }),
    sourceId: clip(row.sourceId, LIMITS.id),
    rating,
    title: clip(row.title, LIMITS.title),
    text,
    name,
    email: isValidEmail(email) ? email : '',
    country: /^[A-Za-z]{2}$/.test(row.country.trim()) ? row.country.trim().toUpperCase() : '',
    language: row.language.trim().toLowerCase(),
    date,
    experienceDate: row.orderDate.trim() ? (parseDate(row.orderDate, ctx.order) ?? null) : null,
    held: !row.shown,
    sourceStatus: clip(row.sourceStatus, 100),
    reply: row.reply && replyDate ? { text: clip(row.reply.text, LIMITS.reply), date: replyDate } : null,
    order: clip(row.order, LIMITS.id),
    incentivised: row.incentivised,
    sourceVerified: row.sourceVerified,
    photos: row.photos.map(httpUrl).filter(Boolean).slice(0, 20),
    product,
    importedFrom: clip(row.importedFrom ?? '', 100),
    products,
  };
}
