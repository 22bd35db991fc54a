// Cached reads of a shop's reviews: the merchant's ratings list and the public summary. Reads far outnumber
// writes, so each shop's list is loaded once and served from memory until a review of that shop changes: at once
// in this process (ReviewStore.onChange), and for changes made by other processes when the cache TTL passes and
// the shop's review version (one small document) shows a change. Unchanged lists are kept, not reloaded: on
// FerretDB a reload is a scan of the whole reviews collection.
// The merchant's part (which lists quarantined reviews too) and the public part are kept apart: a write that
// changes nothing public (a review waiting in quarantine, which anyone can post) reloads only the merchant's, so
// nobody can keep a shop's public pages reloading.
// A shop whose list is too large for the cache is paged in the database instead.
import { BoundedCache, type CacheLimits } from '../cache.js';
import type { ReviewStore } from '../reviews/store.js';
import type { Review } from '../reviews/model.js';
import { originFields, type OriginFields } from '../reviews/origin.js';
import { experienceDateOf } from '../reviews/experience.js';
import { summarize, toRating, type Rating, type RatingsSummary } from '../reviews/rating.js';

/** Shops with more reviews than this are paged in the database rather than held whole in memory. */
const WHOLE_LIST_MAX = 50_000;
const APPROX_RATING_BYTES = 400;
/**
 * Processes of a version before the public counter existed bump only `all`, for public changes too. While such
 * processes may still run (a rolling upgrade), a public part whose `all` moved is read again once it is this old:
 * at most once a minute per shop, however many quarantined writes anyone posts.
 */
const PUBLIC_RECHECK_MS = 60_000;
/** How many of the newest published reviews are kept for public displays (the widget shows at most 6). */
const PUBLISHED_KEPT = 100;

/** A published review as public displays show it: no e-mail address, the reply's text only. */
interface PublishedReview extends Pick<OriginFields, 'origin' | 'incentivised' | 'imported_from'> {
  id: number;
  name: string;
  rating: number;
  comment: string | null;
  created: Date;
  reply: string | null;
  experience_date: string;
}

const toPublished = (r: Review): PublishedReview => {
  // The widget labels each review with how it was checked (issue 11).
  const { origin, incentivised, imported_from } = originFields(r);
  return {
    id: r.id,
    name: r.name,
    rating: r.rating,
    comment: r.comment,
    created: r.created,
    reply: r.reply?.text ?? null,
    origin,
    incentivised,
    imported_from,
    experience_date: experienceDateOf(r),
  };
};

interface MerchantPart {
  /** The shop's `all` review version (ReviewStore.versionsOf) this copy was loaded at. */
  version: number;
  /** The merchant's list: not deleted, not spam (quarantined ones included and flagged), newest first. */
  merchant: { rating: Rating; language: string }[];
  /** The merchant's list split by review language, so a language filter is a slice, not a scan. */
  byLanguage: Map<string, Rating[]>;
}

interface PublicPart {
  /** The shop's `public` review version (ReviewStore.versionsOf) this copy was loaded at. */
  version: number;
  /** The `all` version at that moment, and when it was (ms): see PUBLIC_RECHECK_MS. */
  allVersion: number;
  loaded: number;
  summary: RatingsSummary;
  /** The newest published reviews (at most PUBLISHED_KEPT), newest first. */
  published: PublishedReview[];
  /** Every published review, newest first, as the public embed API and shop page page through them. */
  publicList: PublicRating[];
  publicVerified: number;
}

interface Parts {
  merchant: MerchantPart;
  public: PublicPart;
}
type Part = keyof Parts;

const cacheKey = (part: Part, shopId: number): string => `${part === 'merchant' ? 'm' : 'p'}:${shopId}`;

const isStalePublic = (part: PublicPart | undefined, allVersion: number): boolean =>
  part !== undefined && part.allVersion !== allVersion && Date.now() - part.loaded >= PUBLIC_RECHECK_MS;

/** A published review for public paging: the Rating (its e-mail must not be shown) and whether it is verified. */
export interface PublicRating {
  rating: Rating;
  verified: boolean;
}

interface PublicPage {
  reviews: PublicRating[];
  /** Published reviews in all. */
  total: number;
  /** Published reviews by verified customers. */
  verified: number;
}

interface RatingsPage {
  ratings: Rating[];
  total: number;
}

export class RatingsReadModel {
  private readonly cache: BoundedCache<MerchantPart | PublicPart>;
  private readonly generations: Record<Part, Map<number, number>> = { merchant: new Map(), public: new Map() };
  private readonly loading = new Map<string, Promise<MerchantPart | PublicPart | null>>();

  constructor(
    private readonly reviews: ReviewStore,
    limits: CacheLimits,
  ) {
    this.cache = new BoundedCache(limits);
    // Every write changes the merchant's list; only some change what the public sees.
    reviews.onChange((shopId) => this.invalidate(shopId, 'merchant'));
    reviews.onPublicChange((shopId) => this.invalidate(shopId, 'public'));
  }

  invalidate(shopId: number, part: Part): void {
    this.generations[part].set(shopId, this.generation(part, shopId) + 1);
    this.cache.delete(cacheKey(part, shopId));
    // A load already running may predate the change: later callers start a new one.
    this.loading.delete(cacheKey(part, shopId));
  }

  async page(shopId: number, options: { language?: string; offset: number; limit: number }): Promise<RatingsPage> {
    const whole = await this.load(shopId, 'merchant');
    if (whole) {
      const matching = options.language
        ? (whole.byLanguage.get(options.language) ?? [])
        : whole.merchant.map((r) => r.rating);
      return { ratings: matching.slice(options.offset, options.offset + options.limit), total: matching.length };
    }
    const { reviews, total } = await this.reviews.listedPage(shopId, options);
    return { ratings: reviews.map(toRating), total };
  }

  async summary(shopId: number): Promise<RatingsSummary> {
    const whole = await this.load(shopId, 'public');
    if (whole) return whole.summary;
    return summarize(await this.reviews.publishedScores(shopId));
  }

  /** The newest published reviews (not quarantined, deleted, spam or invalid), newest first, with replies. */
  async latestPublished(shopId: number, limit: number): Promise<PublishedReview[]> {
    const whole = await this.load(shopId, 'public');
    if (whole && limit <= PUBLISHED_KEPT) return whole.published.slice(0, limit);
    return (await this.reviews.publishedPage(shopId, 0, limit)).map(toPublished);
  }

  /** A page of the published reviews, newest first, with the counts the public badges need. */
  async publishedPage(shopId: number, offset: number, limit: number): Promise<PublicPage> {
    const whole = await this.load(shopId, 'public');
    if (whole) {
      const list = whole.publicList;
      return {
        reviews: list.slice(offset, offset + limit),
        total: list.length,
        verified: whole.publicVerified,
      };
    }
    const [docs, { total, verified }] = await Promise.all([
      this.reviews.publishedPage(shopId, offset, limit),
      this.reviews.publishedCounts(shopId),
    ]);
    return { reviews: docs.map((d) => ({ rating: toRating(d), verified: d.verified })), total, verified };
  }

  /** One part of the shop's lists from the cache, loading it when missing; null when the shop is too large to hold. */
  private async load<P extends Part>(shopId: number, part: P): Promise<Parts[P] | null> {
    const key = cacheKey(part, shopId);
    const cached = this.cache.peek(key) as { value: Parts[P]; fresh: boolean } | undefined;
    if (cached?.fresh) return cached.value;
    // Requests that miss together share one check (and scan): when the TTL ends under load, every request would
    // otherwise start its own.
    let loading = this.loading.get(key) as Promise<Parts[P] | null> | undefined;
    if (!loading) {
      loading = this.revalidate(shopId, part, cached?.value).finally(() => this.loading.delete(key));
      this.loading.set(key, loading);
    }
    return loading;
  }

  private generation(part: Part, shopId: number): number {
    return this.generations[part].get(shopId) ?? 0;
  }

  private async revalidate<P extends Part>(
    shopId: number,
    part: P,
    stale: Parts[P] | undefined,
  ): Promise<Parts[P] | null> {
    const generations = { merchant: this.generation('merchant', shopId), public: this.generation('public', shopId) };
    const versions = await this.reviews.versionsOf(shopId);
    const version = part === 'merchant' ? versions.all : versions.public;
    const recheck = part === 'public' && isStalePublic(stale as PublicPart | undefined, versions.all);
    if (stale && stale.version === version && this.generation(part, shopId) === generations[part] && !recheck) {
      this.cache.renew(cacheKey(part, shopId));
      return stale;
    }
    const loaded = await this.loadFromDatabase(shopId, versions, generations, part);
    return loaded ? loaded[part] : null;
  }

  /**
   * Loads both parts with one read of the shop's reviews. The part asked for is cached; the other one too when the
   * cache holds no fresh copy of it (a fresh copy is right already, and keeping it keeps its objects).
   */
  private async loadFromDatabase(
    shopId: number,
    versions: { all: number; public: number },
    generations: Record<Part, number>,
    asked: Part,
  ): Promise<Parts | null> {
    const docs = await this.reviews.allListed(shopId, WHOLE_LIST_MAX);
    if (!docs) return null;
    // Sorted here: FerretDB sorts in its own process anyway, and this keeps one scan per load.
    docs.sort((a, b) => b.created.getTime() - a.created.getTime() || b.id - a.id);
    const merchant: MerchantPart = {
      version: versions.all,
      merchant: docs.map((d) => ({ rating: toRating(d), language: d.language })),
      byLanguage: new Map(),
    };
    const published: PublicPart = {
      version: versions.public,
      allVersion: versions.all,
      loaded: Date.now(),
      summary: summarize(docs.filter((d) => d.published)),
      published: docs
        .filter((d) => d.published)
        .slice(0, PUBLISHED_KEPT)
        .map(toPublished),
      publicList: [],
      publicVerified: 0,
    };
    docs.forEach((d, i) => {
      const rating = merchant.merchant[i]!.rating;
      const sameLanguage = merchant.byLanguage.get(d.language);
      if (sameLanguage) sameLanguage.push(rating);
      else merchant.byLanguage.set(d.language, [rating]);
      if (!d.published) return;
      published.publicList.push({ rating, verified: d.verified === true });
      if (d.verified) published.publicVerified++;
    });
    const parts: Parts = { merchant, public: published };
    const bytes = {
      merchant: 256 + docs.length * APPROX_RATING_BYTES,
      public: 256 + published.publicList.length * APPROX_RATING_BYTES,
    };
    for (const part of ['merchant', 'public'] as const) {
      // A write during the load makes that part stale: serve it to this caller, but do not cache it.
      if (this.generation(part, shopId) !== generations[part]) continue;
      const key = cacheKey(part, shopId);
      if (part !== asked && this.cache.peek(key)?.fresh) continue;
      this.cache.set(key, parts[part], bytes[part]);
    }
    return parts;
  }
}
