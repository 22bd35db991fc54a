// Cached reads of a shop's reviews: the merchant's ratings list and the public summary. Reads far outnumber
// writes, so each shop's list is loaded once and served from memory until a review of that shop changes: at once
// in this process (ReviewStore.onChange), and for changes made by other processes when the cache TTL passes and
// the shop's review version (one small document) shows a change. Unchanged lists are kept, not reloaded: on
// FerretDB a reload is a scan of the whole reviews collection.
// A shop whose list is too large for the cache is paged in the database instead.
import { BoundedCache, type CacheLimits } from '../cache.js';
import type { Review, ReviewStore } from '../reviews/store.js';
import { summarize, toRating, type Rating, type RatingsSummary } from './rating.js';

/** Shops with more reviews than this are paged in the database rather than held whole in memory. */
const WHOLE_LIST_MAX = 50_000;
const APPROX_RATING_BYTES = 400;
/** How many of the newest published reviews are kept for public displays (the widget shows at most 6). */
const PUBLISHED_KEPT = 100;

/** A published review as public displays show it: no e-mail address, the reply's text only. */
export interface PublishedReview {
  id: number;
  name: string;
  rating: number;
  comment: string | null;
  created: Date;
  reply: string | null;
}

const toPublished = (r: Review): PublishedReview => ({
  id: r.id,
  name: r.name,
  rating: r.rating,
  comment: r.comment,
  created: r.created,
  reply: r.reply?.text ?? null,
});

interface ShopRatings {
  /** The shop's review version (ReviewStore.shopVersion) this copy was loaded at. */
  version: number;
  /** The merchant's list: not deleted, not spam (quarantined ones included and flagged), newest first. */
  merchant: { rating: Rating; language: string }[];
  /** The merchant's list split by review language, so a language filter is a slice, not a scan. */
  byLanguage: Map<string, Rating[]>;
  summary: RatingsSummary;
  /** The newest published reviews (at most PUBLISHED_KEPT), newest first. */
  published: PublishedReview[];
  /** Every published review, newest first, as the public embed API and shop page page through them. */
  publicList: PublicRating[];
  publicVerified: number;
}

/** A published review for public paging: the Rating (its e-mail must not be shown) and whether it is verified. */
export interface PublicRating {
  rating: Rating;
  verified: boolean;
}

export interface PublicPage {
  reviews: PublicRating[];
  /** Published reviews in all. */
  total: number;
  /** Published reviews by verified customers. */
  verified: number;
}

export interface RatingsPage {
  ratings: Rating[];
  total: number;
}

export class RatingsReadModel {
  private readonly cache: BoundedCache<ShopRatings>;
  private readonly generations = new Map<number, number>();
  private readonly loading = new Map<number, Promise<ShopRatings | null>>();

  constructor(
    private readonly reviews: ReviewStore,
    limits: CacheLimits,
  ) {
    this.cache = new BoundedCache(limits);
    reviews.onChange((shopId) => this.invalidate(shopId));
  }

  invalidate(shopId: number): void {
    this.generations.set(shopId, (this.generations.get(shopId) ?? 0) + 1);
    this.cache.delete(String(shopId));
    // A load already running may predate the change: later callers start a new one.
    this.loading.delete(shopId);
  }

  async page(shopId: number, options: { language?: string; offset: number; limit: number }): Promise<RatingsPage> {
    const whole = await this.load(shopId);
    if (whole) {
      const matching = options.language
        ? (whole.byLanguage.get(options.language) ?? [])
        : whole.merchant.map((r) => r.rating);
      return { ratings: matching.slice(options.offset, options.offset + options.limit), total: matching.length };
    }
    const filter = { shopId, deleted: false, is_spam: false, ...(options.language ? { language: options.language } : {}) };
    const [docs, total] = await Promise.all([
      this.reviews.collection
        .find(filter as never, { projection: { _id: 0 } })
        .sort({ created: -1, id: -1 })
        .skip(options.offset)
        .limit(options.limit)
        .toArray(),
      this.reviews.collection.countDocuments(filter as never),
    ]);
    return { ratings: (docs as Review[]).map(toRating), total };
  }

  async summary(shopId: number): Promise<RatingsSummary> {
    const whole = await this.load(shopId);
    if (whole) return whole.summary;
    const published = await this.reviews.collection
      .find({ shopId, published: true }, { projection: { _id: 0, rating: 1, ratings: 1 } })
      .toArray();
    return summarize(published);
  }

  /** The newest published reviews (not quarantined, deleted, spam or invalid), newest first, with replies. */
  async latestPublished(shopId: number, limit: number): Promise<PublishedReview[]> {
    const whole = await this.load(shopId);
    if (whole && limit <= PUBLISHED_KEPT) return whole.published.slice(0, limit);
    const docs = await this.reviews.collection
      .find({ shopId, published: true }, { projection: { _id: 0 } })
      .sort({ created: -1, id: -1 })
      .limit(limit)
      .toArray();
    return (docs as Review[]).map(toPublished);
  }

  /** A page of the published reviews, newest first, with the counts the public badges need. */
  async publishedPage(shopId: number, offset: number, limit: number): Promise<PublicPage> {
    const whole = await this.load(shopId);
    if (whole) {
      const list = whole.publicList;
      return {
        reviews: list.slice(offset, offset + limit),
        total: list.length,
        verified: whole.publicVerified,
      };
    }
    const [docs, total, verified] = await Promise.all([
      this.reviews.collection
        .find({ shopId, published: true }, { projection: { _id: 0 } })
        .sort({ created: -1, id: -1 })
        .skip(offset)
        .limit(limit)
        .toArray(),
      this.reviews.collection.countDocuments({ shopId, published: true }),
      this.reviews.collection.countDocuments({ shopId, published: true, verified: true }),
    ]);
    return { reviews: (docs as Review[]).map((d) => ({ rating: toRating(d), verified: d.verified })), total, verified };
  }

  /** The shop's whole list and summary from the cache, loading them when missing; null when too large to hold. */
  private async load(shopId: number): Promise<ShopRatings | null> {
    const cached = this.cache.peek(String(shopId));
    if (cached?.fresh) return cached.value;
    // Requests that miss together share one check (and scan): when the TTL ends under load, every request would
    // otherwise start its own.
    let loading = this.loading.get(shopId);
    if (!loading) {
      loading = this.revalidate(shopId, cached?.value).finally(() => this.loading.delete(shopId));
      this.loading.set(shopId, loading);
    }
    return loading;
  }

  private async revalidate(shopId: number, stale: ShopRatings | undefined): Promise<ShopRatings | null> {
    const generation = this.generations.get(shopId) ?? 0;
    const version = await this.reviews.shopVersion(shopId);
    if (stale && stale.version === version && (this.generations.get(shopId) ?? 0) === generation) {
      this.cache.renew(String(shopId));
      return stale;
    }
    return this.loadFromDatabase(shopId, version, generation);
  }

  private async loadFromDatabase(shopId: number, version: number, generation: number): Promise<ShopRatings | null> {
    const key = String(shopId);
    const docs = await this.reviews.collection
      .find({ shopId, deleted: false, is_spam: false }, { projection: { _id: 0 } })
      .limit(WHOLE_LIST_MAX + 1)
      .toArray();
    if (docs.length > WHOLE_LIST_MAX) return null;
    // Sorted here: FerretDB sorts in its own process anyway, and this keeps one scan per load.
    docs.sort((a, b) => b.created.getTime() - a.created.getTime() || b.id - a.id);
    const value: ShopRatings = {
      version,
      merchant: docs.map((d) => ({ rating: toRating(d), language: d.language })),
      byLanguage: new Map(),
      summary: summarize(docs.filter((d) => d.published)),
      published: docs.filter((d) => d.published).slice(0, PUBLISHED_KEPT).map(toPublished),
      publicList: [],
      publicVerified: 0,
    };
    docs.forEach((d, i) => {
      const rating = value.merchant[i]!.rating;
      const sameLanguage = value.byLanguage.get(d.language);
      if (sameLanguage) sameLanguage.push(rating);
      else value.byLanguage.set(d.language, [rating]);
      if (!d.published) return;
      value.publicList.push({ rating: value.merchant[i]!.rating, verified: d.verified === true });
      if (d.verified) value.publicVerified++;
    });
    // A write during the load makes this result stale: serve it to this caller, but do not cache it.
    if ((this.generations.get(shopId) ?? 0) === generation) this.cache.set(key, value, 256 + docs.length * APPROX_RATING_BYTES);
    return value;
  }
}
