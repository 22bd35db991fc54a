// Google's product review feed, version 2.4 (the only one Google still accepts), as pure functions of a shop and
// its reviews: which product reviews go in, and each one's elements in the schema's order
// (product_reviews-2.4.xsd beside this file). Each upload is complete for Google: whatever this feed leaves out is
// deleted there, so it lists every product review that may be sent, and only those (docs/decisions/feed.md).
import { escapeXml, xmlSafe } from '../http/xml.js';
import type { Review, ReviewProduct } from '../reviews/model.js';
import { collectionMethodOf, originFields } from '../reviews/origin.js';
import { publicPhotos } from '../reviews/photos.js';
import { formatIso } from '../time.js';
import type { Webshop } from '../webshops/model.js';
import { faviconOf, gtinOf, productScore } from './feed.js';

const ANONYMOUS = 'Anonymous';
const SCHEMA_LOCATION = 'http://www.google.com/shopping/reviews/schema/product/2.4/product_reviews.xsd';

/** What the feed reads of a stored review (the build asks the database for these fields only). */
export type FeedReview = Pick<
  Review,
  | 'id'
  | 'name'
  | 'rating'
  | 'comment'
  | 'language'
  | 'country'
  | 'created'
  | 'source'
  | 'verified'
  | 'products'
  | 'published'
  | 'deleted'
  | 'is_spam'
> &
  Partial<Pick<Review, 'origin' | 'incentivised' | 'imported_from' | 'original_date' | 'title' | 'photos'>>;

export interface GoogleFeedContext {
  shop: Pick<Webshop, 'id' | 'name' | 'url' | 'logo'>;
  brandName: string;
  baseUrl: string;
}

/** One product review of the feed: a product of a review, with its own score and text. */
export interface ProductReview {
  review: FeedReview;
  product: ReviewProduct;
  /** Its position among the review's products (the feed's `review_id` is `<review id>-<position + 1>`). */
  index: number;
  score: number;
  content: string;
}

/** An absolute http(s) address, as Google's schema wants for product and image URLs; else undefined. */
function httpUrl(value: string | null | undefined): string | undefined {
  const text = (value ?? '').trim();
  if (!text) return undefined;
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.includes('.') ? url.href : undefined;
  } catch {
    return undefined;
  }
}

const clean = (value: string | null | undefined): string => xmlSafe(value ?? '').trim();

/** Imported reviews are never sent to Google: they are another platform's, and that platform's feed sent them. */
export const isImported = (review: Pick<FeedReview, 'source' | 'verified' | 'origin'>): boolean =>
  review.source === 'import' || originFields(review).origin === 'imported';

/** A review whose products may go to Google: published (not removed, spam or held) and not imported. */
const isSendable = (review: FeedReview): boolean =>
  review.published && !review.deleted && !review.is_spam && !isImported(review);

/**
 * The product's text: its own when the customer wrote one, else the review's comment (the invitation asks for one
 * text about the purchase). Empty: a rating only, which Google does not take.
 */
const productText = (review: Pick<FeedReview, 'comment'>, product: Pick<ReviewProduct, 'content'>): string =>
  clean(product.content) || clean(review.comment);

/** The product as the shop identifies it: the order data's `id`, else its SKU, else its GTIN (issue 22). */
export function productIdentity(product: Pick<ReviewProduct, 'external_id' | 'sku' | 'gtin'>): string {
  const id = clean(product.external_id);
  if (id) return `id:${id}`;
  const sku = clean(product.sku);
  if (sku) return `sku:${sku}`;
  const gtin = gtinOf(product.gtin ?? '');
  return gtin ? `gtin:${gtin}` : '';
}

/** Google matches a product by its GTIN, or by MPN and brand together. */
export const hasMatchingIds = (product: Pick<ReviewProduct, 'gtin' | 'mpn' | 'brand'>): boolean =>
  gtinOf(product.gtin ?? '') !== undefined || (clean(product.mpn) !== '' && clean(product.brand) !== '');

/** A stored product with every text present, so one odd document cannot break the whole feed. */
function normalized(p: Partial<ReviewProduct>): ReviewProduct {
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
    content: str(p.content),
  };
}

/** Why a product of a sendable review stays out of the feed, or null when it goes in. */
export type LeftOut = 'no_text' | 'no_url' | null;

/**
 * The products of a review, each with what the feed would send and whether it may (a sendable review's products
 * only: others are never looked at).
 */
export function productReviewsOf(review: FeedReview): { entry: ProductReview; leftOut: LeftOut }[] {
  if (!isSendable(review) || !Array.isArray(review.products)) return [];
  return review.products.map((raw, index) => {
    const product = normalized(raw);
    const content = productText(review, product);
    const score = productScore(review, product);
    const leftOut: LeftOut = !content ? 'no_text' : !httpUrl(product.url) ? 'no_url' : null;
    return { entry: { review, product, index, score, content }, leftOut };
  });
}

/** One element: attributes and children are already-rendered strings; `undefined` children are left out. */
function el(name: string, attrs: Record<string, string>, ...children: (string | undefined)[]): string {
  const attributes = Object.entries(attrs)
    .map(([k, v]) => ` ${k}="${escapeXml(v)}"`)
    .join('');
  return `<${name}${attributes}>${children.filter((c) => c !== undefined).join('')}</${name}>`;
}

/** A text element, or undefined when the text is blank (Google's strings must not be). */
function textEl(name: string, value: string | null | undefined): string | undefined {
  const text = clean(value);
  return text ? el(name, {}, escapeXml(text)) : undefined;
}

/** `<skus><sku>…</sku></skus>` and the like, or undefined when the value is blank. */
const idList = (list: string, item: string, value: string): string | undefined => {
  const inner = textEl(item, value);
  return inner ? el(list, {}, inner) : undefined;
};

function productIdsEl(product: ReviewProduct): string | undefined {
  const gtin = gtinOf(product.gtin);
  const ids = [
    gtin ? el('gtins', {}, el('gtin', {}, gtin)) : undefined,
    idList('mpns', 'mpn', product.mpn),
    idList('skus', 'sku', product.sku),
    idList('brands', 'brand', product.brand),
  ].filter((x) => x !== undefined);
  return ids.length ? el('product_ids', {}, ...ids) : undefined;
}

/** The public page of one review: Google's `review_url` of type `singleton`. */
const reviewPageUrl = (baseUrl: string, shopId: number, reviewId: number): string =>
  `${baseUrl}/webshops/${shopId}/reviews/${reviewId}`;

/** The feed entry of one product review, its elements in the order of the schema's `reviewType`. */
export function productReviewXml(entry: ProductReview, ctx: GoogleFeedContext): string {
  const { review, product } = entry;
  const name = clean(review.name);
  const country = clean(review.country).toUpperCase();
  const { origin, incentivised } = originFields(review);
  const images = review.photos?.length ? publicPhotos({ ...review, photos: review.photos }, ctx.baseUrl) : [];
  const imageUrls = images.map((p) => httpUrl(p.url)).filter((u) => u !== undefined);
  return el(
    'review',
    {},
    el('review_id', {}, `${review.id}-${entry.index + 1}`),
    el('reviewer', {}, name ? el('name', {}, escapeXml(name)) : el('name', { is_anonymous: 'true' }, ANONYMOUS)),
    el('review_language', {}, escapeXml(review.language)),
    /^[A-Z]{2}$/.test(country) ? el('review_country', {}, country) : undefined,
    el('review_timestamp', {}, formatIso(review.created)),
    textEl('title', review.title),
    el('content', {}, escapeXml(entry.content)),
    el('review_url', { type: 'singleton' }, escapeXml(reviewPageUrl(ctx.baseUrl, ctx.shop.id, review.id))),
    imageUrls.length
      ? el('reviewer_images', {}, ...imageUrls.map((u) => el('reviewer_image', {}, el('url', {}, escapeXml(u)))))
      : undefined,
    el('ratings', {}, el('overall', { min: '1', max: '5' }, String(entry.score))),
    el(
      'products',
      {},
      el(
        'product',
        {},
        productIdsEl(product),
        textEl('product_name', product.name),
        el('product_url', {}, escapeXml(httpUrl(product.url) ?? '')),
      ),
    ),
    el('is_spam', {}, 'false'),
    el('is_verified_purchase', {}, origin === 'verified_order' ? 'true' : 'false'),
    el('is_incentivized_review', {}, incentivised ? 'true' : 'false'),
    el('collection_method', {}, collectionMethodOf(review)),
  );
}

/** The document's head, up to where the reviews begin. */
export function feedHead(ctx: GoogleFeedContext): string {
  const favicon = httpUrl(faviconOf(ctx.shop));
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<feed xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:noNamespaceSchemaLocation="${SCHEMA_LOCATION}">` +
    el('version', {}, '2.4') +
    el('aggregator', {}, el('name', {}, escapeXml(clean(ctx.brandName) || 'Reviews'))) +
    el(
      'publisher',
      {},
      el('name', {}, escapeXml(clean(ctx.shop.name) || clean(ctx.shop.url) || `Shop ${ctx.shop.id}`)),
      favicon ? el('favicon', {}, escapeXml(favicon)) : undefined,
    )
  );
}

/** The document's tail: `reviews` is left out when empty (the schema wants at least one review inside). */
export const feedTail = (opened: boolean): string => `${opened ? '</reviews>' : ''}</feed>\n`;
