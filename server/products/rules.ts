// A shop's products and their reviews (issue 22), as pure functions of the stored reviews. Products exist only
// inside reviews: the `products` of an invitation's order data (kept on each review) and imported product reviews
// (server/imports/product-review-store.ts). One counting rule for every product surface (the in-page block, the
// widget's product layout, JSON-LD): published reviews that rated the product 1–5, imported product reviews
// included (labelled), incentivised ones counted unless the shop's policy says otherwise.
import type { ImportedProductReview } from '../imports/model.js';
import type { Review, ReviewProduct } from '../reviews/model.js';
import { originFields, type ReviewOrigin } from '../reviews/origin.js';
import { experienceDateOf } from '../reviews/experience.js';
import { publicPhotos, type PublicPhoto } from '../reviews/photos.js';
import { countsInScore, type ScorePolicy } from '../reviews/rating.js';
import { formatDate } from '../time.js';
import type { Listing } from '../pages/listing.js';

/** What a product is known by: the shop's own id (order data `id`), its SKU, its GTIN. */
interface ProductIds {
  external_id: string;
  sku: string;
  gtin: string;
}

/** A product as its newest review describes it. */
export interface ProductInfo extends ProductIds {
  name: string;
  /** http(s) only; '' when none. */
  url: string;
  image: string;
  mpn: string;
  brand: string;
}

/** One review of a product, as the product surfaces show it (no e-mail address, published photos only). */
export interface ProductReview {
  /** `<review id>` for the shop's reviews, `i:<key>` for imported product reviews: unique within the product. */
  key: string;
  /** The review's id for "Helpful" votes; null for imported product reviews (they take no votes). */
  reviewId: number | null;
  name: string;
  /** 1–5. */
  rating: number;
  title: string;
  text: string;
  /** When it was written (imports: the date on the source platform). */
  date: Date;
  /** `YYYY-MM-DD` or `YYYY-MM` (reviews/experience.ts). */
  experience_date: string;
  origin: ReviewOrigin;
  incentivised: boolean;
  imported_from: string | null;
  reply: string | null;
  photos: PublicPhoto[];
}

export interface ProductEntry {
  /** The identity key (identityKey). */
  key: string;
  info: ProductInfo;
  /** Newest first. */
  reviews: ProductReview[];
}

const str = (v: unknown): string => (typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '');

/** An absolute http(s) URL, else '' (javascript:, data: and relative addresses never pass to a product surface). */
function httpUrl(raw: unknown): string {
  const value = str(raw);
  if (!value || value.length > 2000) return '';
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : '';
  } catch {
    return '';
  }
}

/** The product's identity in its shop: its id, else its SKU, else its GTIN; undefined when it has none. */
export function identityKey(ids: ProductIds): string | undefined {
  if (ids.external_id) return `id:${ids.external_id}`;
  if (ids.sku) return `sku:${ids.sku}`;
  if (ids.gtin) return `gtin:${ids.gtin}`;
  return undefined;
}

const infoOf = (p: Partial<ReviewProduct>): ProductInfo => ({
  external_id: str(p.external_id),
  sku: str(p.sku),
  gtin: str(p.gtin),
  name: str(p.name),
  url: httpUrl(p.url),
  image: httpUrl(p.image_url),
  mpn: str(p.mpn),
  brand: str(p.brand),
});

/** A product rating as stored counts only when it is a whole 1–5 (the feed's scale). */
const productRating = (v: unknown): number | null =>
  typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= 5 ? v : null;

/**
 * The product reviews a stored review holds: one per product the customer rated, while the review is published
 * (the shop's own publication rule). A product without a rating of its own is not reviewed (the shop's score is
 * not the product's).
 */
export function productReviewsOf(review: Review, baseUrl: string): { info: ProductInfo; review: ProductReview }[] {
  if (!review.published) return [];
  const out: { info: ProductInfo; review: ProductReview }[] = [];
  const { origin, incentivised, imported_from } = originFields(review);
  const photos = publicPhotos(review, baseUrl);
  for (const product of review.products ?? []) {
    const rating = productRating(product.rating);
    if (rating === null) continue;
    out.push({
      info: infoOf(product),
      review: {
        key: String(review.id),
        reviewId: review.id,
        name: review.name,
        rating,
        title: str(review.title),
        // The product's own words; the review's when the product got none.
        text: str(product.content) || str(review.comment),
        date: review.original_date ?? review.created,
        experience_date: experienceDateOf(review),
        origin,
        incentivised,
        imported_from,
        reply: review.reply?.text ?? null,
        photos,
      },
    });
  }
  return out;
}

/**
 * An imported product review as shown, null unless published. The file's photo URLs are never shown or hot-linked:
 * its photos are those the worker fetched and re-encoded (imports/photo-import.ts), shown ones only. The file gives
 * no language: their default description is English ("Photo 1 of 3 by {name}").
 */
export function importedProductReviewOf(
  r: ImportedProductReview,
  baseUrl = '',
): { info: ProductInfo; review: ProductReview } | null {
  const rating = productRating(r.rating);
  if (r.status !== 'published' || rating === null) return null;
  const p = r.product;
  // The file's id field falls back to the SKU, GTIN or handle: only a real id is an id here.
  const ownId = [p.sku, p.gtin, p.handle].includes(p.external_id) ? '' : p.external_id;
  return {
    info: { ...infoOf({ ...p, external_id: ownId }), image: httpUrl(p.image_url) },
    review: {
      key: `i:${r._id}`,
      reviewId: null,
      name: r.name,
      rating,
      title: str(r.title),
      text: str(r.text),
      date: r.original_date,
      experience_date: formatDate(r.experience_date ?? r.original_date),
      origin: 'imported',
      incentivised: r.incentivised === true,
      imported_from: r.imported_from || null,
      reply: r.reply?.text ?? null,
      photos: publicPhotos({ photos: r.photos ?? [], name: r.name, language: 'en' }, baseUrl),
    },
  };
}

/** The products of a shop from its product reviews, each with its reviews newest first. */
export function buildProducts(reviews: Iterable<{ info: ProductInfo; review: ProductReview }>): ProductEntry[] {
  const byKey = new Map<string, ProductEntry>();
  for (const { info, review } of reviews) {
    const key = identityKey(info);
    if (key === undefined) continue;
    const entry = byKey.get(key);
    if (entry) {
      entry.reviews.push(review);
      // The newest review's description of the product wins; what it leaves blank, an older one fills.
      const newer = review.date > (entry.reviews[0]?.date ?? new Date(0));
      entry.info = newer ? merged(info, entry.info) : merged(entry.info, info);
    } else byKey.set(key, { key, info, reviews: [review] });
  }
  for (const entry of byKey.values()) entry.reviews.sort(newestFirst);
  return [...byKey.values()];
}

const newestFirst = (a: ProductReview, b: ProductReview) =>
  b.date.getTime() - a.date.getTime() || (a.key < b.key ? 1 : a.key > b.key ? -1 : 0);

function merged(first: ProductInfo, then: ProductInfo): ProductInfo {
  const out = { ...first };
  for (const k of Object.keys(out) as (keyof ProductInfo)[]) if (!out[k]) out[k] = then[k];
  return out;
}

/** Finds products by what `product=` names: an id first, then a SKU, then a GTIN. */
export class ProductLookup {
  private readonly byId = new Map<string, ProductEntry>();
  private readonly bySku = new Map<string, ProductEntry>();
  private readonly byGtin = new Map<string, ProductEntry>();

  constructor(readonly products: readonly ProductEntry[]) {
    for (const p of products) {
      if (p.info.external_id && !this.byId.has(p.info.external_id)) this.byId.set(p.info.external_id, p);
    }
    // Products known by their id come first for a SKU or GTIN that several carry.
    const ordered = [...products].sort((a, b) => Number(!a.info.external_id) - Number(!b.info.external_id));
    for (const p of ordered) {
      if (p.info.sku && !this.bySku.has(p.info.sku)) this.bySku.set(p.info.sku, p);
      if (p.info.gtin && !this.byGtin.has(p.info.gtin)) this.byGtin.set(p.info.gtin, p);
    }
  }

  find(asked: string): ProductEntry | undefined {
    const value = asked.trim();
    if (!value) return undefined;
    return this.byId.get(value) ?? this.bySku.get(value) ?? this.byGtin.get(value);
  }
}

export interface AggregateInput {
  reviews: readonly Pick<ProductReview, 'rating' | 'incentivised'>[];
  /** The operator's INCENTIVISED_IN_SCORE policy (reviews/rating.ts): incentivised reviews are shown, labelled, either way. */
  policy: ScorePolicy;
}

export interface Aggregate {
  count: number;
  /** Mean of the 1–5 ratings counted, one decimal; 0 when none. */
  average: number;
}

/** The product's figures: one rule for every product surface. */
export function aggregate({ reviews, policy }: AggregateInput): Aggregate {
  let count = 0;
  let total = 0;
  for (const r of reviews) {
    if (!countsInScore(r, policy)) continue;
    count++;
    total += r.rating;
  }
  return { count, average: count ? Math.round((total / count) * 10) / 10 : 0 };
}

/** Reviews shown per page of every product surface. */
export const PAGE_SIZE = 10;

/**
 * The shopper's sort and filter (the shop page's rules: pages/listing.ts) over a product's reviews, newest first as
 * held: filtered by stars and photos, then sorted stably (equal ones stay newest first). A new array.
 */
export function listProductReviews(
  reviews: readonly ProductReview[],
  listing: Listing,
  helpful: ReadonlyMap<number, number>,
): ProductReview[] {
  const stars = new Set(listing.stars);
  const kept = reviews.filter(
    (r) => (stars.size === 0 || stars.has(r.rating)) && (!listing.photos || r.photos.length > 0),
  );
  const votes = (r: ProductReview) => (r.reviewId === null ? 0 : (helpful.get(r.reviewId) ?? 0));
  switch (listing.sort) {
    case 'oldest':
      return kept.reverse();
    case 'highest':
      return kept.sort((a, b) => b.rating - a.rating);
    case 'lowest':
      return kept.sort((a, b) => a.rating - b.rating);
    case 'helpful':
      return kept.sort((a, b) => votes(b) - votes(a));
    default:
      return kept;
  }
}
