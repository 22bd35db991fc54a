// The product review feed (product_reviews.xml) as a pure function of a shop and its reviews.
//
// Each product of a review is one feed `review` (a "product review"): shop plugins read only the first product of
// an entry, and its rating and text are the product's own when the customer gave them. The elements shared with
// Google's Product Reviews Feed come in Google's order and form; the spec's own elements (email, valid, deleted,
// modified, product external_id) are added at the end of their parents and only with `detailed=1`.
import { escapeXml, xmlSafe } from '../http/xml.js';
import { publicPageUrl } from '../links.js';
import type { Review, ReviewProduct } from '../reviews/model.js';
import { collectionMethodOf } from '../reviews/origin.js';
import { formatIso } from '../time.js';
import type { Webshop } from '../webshops/model.js';

const FEED_VERSION = '2.3';
const ANONYMOUS = 'Anonymous';

export interface FeedContext {
  shop: Pick<Webshop, 'id' | 'name' | 'url' | 'logo'>;
  brandName: string;
  baseUrl: string;
  /** With the spec's sync elements; without them the feed is a plain Google feed (see docs/decisions.md). */
  detailed: boolean;
}

/** One element: attributes and children are already-rendered strings; `undefined` children are left out. */
function el(name: string, attrs: Record<string, string>, ...children: (string | undefined)[]): string {
  const attributes = Object.entries(attrs)
    .map(([k, v]) => ` ${k}="${escapeXml(v)}"`)
    .join('');
  const inner = children.filter((c) => c !== undefined).join('');
  return inner ? `<${name}${attributes}>${inner}</${name}>` : `<${name}${attributes}/>`;
}

/** A text element, or undefined when the text is empty once cleaned (Google's strings must not be blank). */
function textEl(name: string, value: string, attrs: Record<string, string> = {}): string | undefined {
  const clean = xmlSafe(value).trim();
  return clean ? el(name, attrs, escapeXml(clean)) : undefined;
}

/** Text that must never be blank: the value when it has any visible character, else the fallback. */
function nonBlank(value: string | null | undefined, fallback: string): string {
  const clean = xmlSafe(value ?? '').trim();
  return clean || fallback;
}

/** A GTIN as Google accepts it (8 to 14 digits; shops send spaces and dashes), else undefined. */
export function gtinOf(value: string): string | undefined {
  const digits = value.replace(/[\s-]/g, '');
  return /^\d{8,14}$/.test(digits) ? digits : undefined;
}

/** Where the shop's favicon is: its logo when set, else `/favicon.ico` on its site. */
export function faviconOf(shop: Pick<Webshop, 'url' | 'logo'>): string | undefined {
  if (shop.logo) return shop.logo;
  try {
    return new URL('/favicon.ico', shop.url).href;
  } catch {
    return undefined;
  }
}

/** The product review's overall score and text: the product's own when the customer gave them. */
export function productScore(review: Pick<Review, 'rating'>, product: Pick<ReviewProduct, 'rating'>): number {
  const own = product.rating;
  return own !== null && own >= 1 && own <= 5 ? own : review.rating;
}

export function productContent(
  review: Pick<Review, 'comment'>,
  product: Pick<ReviewProduct, 'content'>,
  score: number,
): string {
  // Google requires text; a review with stars only shows its score rather than being left out.
  return nonBlank(product.content, nonBlank(review.comment, `${score}/5`));
}

/** Stable and unique per product review; its integer prefix is the review's id (plugins cast it with (int)). */
const productReviewId = (review: Pick<Review, 'id'>, index: number) => `${review.id}-${index + 1}`;

/** `<skus><sku>…</sku></skus>` and the like, or undefined when the value is blank. */
function idList(list: string, item: string, value: string): string | undefined {
  const inner = textEl(item, value);
  return inner ? el(list, {}, inner) : undefined;
}

function productEl(product: ReviewProduct, ctx: FeedContext): string {
  const gtin = gtinOf(product.gtin);
  const ids = el(
    'product_ids',
    {},
    gtin ? el('gtins', {}, el('gtin', {}, gtin)) : undefined,
    idList('mpns', 'mpn', product.mpn),
    idList('skus', 'sku', product.sku),
    idList('brands', 'brand', product.brand),
  );
  return el(
    'product',
    {},
    ids,
    textEl('product_name', product.name),
    el('product_url', {}, escapeXml(product.url || ctx.shop.url)),
    ctx.detailed ? el('external_id', {}, escapeXml(product.external_id)) : undefined,
  );
}

/** A stored product with every text present, so one old or odd document cannot break the whole feed. */
function normalizedProduct(p: Partial<ReviewProduct>, deleted: boolean): ReviewProduct {
  const str = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');
  return {
    external_id: str(p.external_id),
    name: str(p.name),
    url: str(p.url),
    image_url: str(p.image_url),
    sku: str(p.sku),
    gtin: str(p.gtin),
    mpn: str(p.mpn),
    brand: str(p.brand),
    rating: typeof p.rating === 'number' ? p.rating : null,
    content: deleted ? '' : str(p.content),
  };
}

/** The feed entry for one product of a review. A deleted review keeps ids, scores and products, no personal text. */
function productReviewEl(review: Review, index: number, ctx: FeedContext): string {
  const product = normalizedProduct(review.products[index]!, review.deleted);
  const score = productScore(review, product);
  const name = nonBlank(review.deleted ? '' : review.name, '');
  return el(
    'review',
    {},
    el('review_id', {}, productReviewId(review, index)),
    el('reviewer', {}, name ? el('name', {}, escapeXml(name)) : el('name', { is_anonymous: 'true' }, ANONYMOUS)),
    el('review_timestamp', {}, formatIso(review.created)),
    el('content', {}, escapeXml(productContent(review.deleted ? { comment: null } : review, product, score))),
    el('review_url', { type: 'singleton' }, escapeXml(publicPageUrl(ctx.baseUrl, ctx.shop.id))),
    el('ratings', {}, el('overall', { min: '1', max: '5' }, String(score))),
    el('products', {}, productEl(product, ctx)),
    el('is_spam', {}, review.is_spam ? 'true' : 'false'),
    textEl('collection_method', collectionMethodOf(review)),
    ...(ctx.detailed
      ? [
          el('email', {}, escapeXml(review.deleted ? '' : review.email)),
          el('valid', {}, review.published ? '1' : '0'),
          review.deleted ? el('deleted', {}, '1') : el('deleted', {}),
          el('modified', {}, formatIso(review.modified)),
        ]
      : []),
  );
}

/**
 * The whole feed. `reviews` come in feed order (modified, newest first). With `detailed`, every review with products
 * is listed (a client needs to learn about deletions and moderation); without it, only published ones, and those
 * published once but no longer are listed under Google's `deleted_reviews`.
 */
export function renderFeed(reviews: Review[], ctx: FeedContext): string {
  const writer = new FeedWriter(ctx);
  return writer.head() + reviews.map((r) => writer.add(r)).join('') + writer.tail();
}

/**
 * The feed in parts, from the reviews in batches: the service holds one batch at a time (and the ids of withdrawn
 * product reviews, which Google wants after all entries), whatever the size of the shop's history.
 */
export async function* feedParts(batches: AsyncIterable<Review[]>, ctx: FeedContext): AsyncGenerator<string> {
  const writer = new FeedWriter(ctx);
  yield writer.head();
  for await (const batch of batches) {
    const part = batch.map((r) => writer.add(r)).join('');
    if (part) yield part;
  }
  yield writer.tail();
}

/** Writes the document head, then each review's entries as they come, then the rest. */
class FeedWriter {
  private readonly withdrawn: string[] = [];
  private opened = false;

  constructor(private readonly ctx: FeedContext) {}

  head(): string {
    const { ctx } = this;
    const favicon = faviconOf(ctx.shop);
    return (
      '<?xml version="1.0" encoding="UTF-8"?>\n<feed>' +
      el('version', {}, FEED_VERSION) +
      el('aggregator', {}, el('name', {}, escapeXml(nonBlank(ctx.brandName, 'Reviews')))) +
      el(
        'publisher',
        {},
        el('name', {}, escapeXml(nonBlank(ctx.shop.name, ctx.shop.url))),
        favicon ? el('favicon', {}, escapeXml(favicon)) : undefined,
      )
    );
  }

  add(review: Review): string {
    if (!Array.isArray(review.products)) return '';
    let out = '';
    for (let i = 0; i < review.products.length; i++) {
      if (this.ctx.detailed || review.published) {
        if (!this.opened) out += '<reviews>';
        this.opened = true;
        out += productReviewEl(review, i, this.ctx);
      } else if (review.announced) this.withdrawn.push(el('review_id', {}, productReviewId(review, i)));
    }
    return out;
  }

  tail(): string {
    // PHP clients crash on a missing <reviews> element, but Google's schema refuses an empty one: only the plain
    // (Google) feed leaves it out when empty.
    const reviews = this.opened ? '</reviews>' : this.ctx.detailed ? '<reviews/>' : '';
    const withdrawn = this.withdrawn.length ? el('deleted_reviews', {}, ...this.withdrawn) : '';
    return `${reviews}${withdrawn}</feed>\n`;
  }
}
