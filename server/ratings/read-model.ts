// Cached reads of a shop's reviews: the merchant's ratings list and the public summary. Reads far outnumber
// writes, so each shop's list is loaded once and served from memory until a review of that shop changes: at once
// in this process (app.ts calls `invalidate` from ReviewStore's listeners), and for changes made by other processes
// when the cache TTL passes and the shop's review version (one small document) shows a change. Unchanged lists are
// kept, not reloaded: on FerretDB a reload is a scan of the whole reviews collection.
// The merchant's part (which lists quarantined reviews too) and the public part are kept apart: a write that
// changes nothing public (a review waiting in quarantine, which anyone can post) reloads only the merchant's, so
// nobody can keep a shop's public pages reloading.
// A shop whose list is too large for the cache is paged in the database instead.
import type { Cache } from '../cache.js';
import { forgetJson } from '../http/json-text.js';
import type { ChosenFilter, ChosenSort, Review } from '../reviews/model.js';
import { originFields, type OriginFields } from '../reviews/origin.js';
import { experienceDateOf } from '../reviews/experience.js';
import {
  COUNT_ALL,
  summarize,
  toRating,
  type Rating,
  type RatingsSummary,
  type ScorePolicy,
} from '../reviews/rating.js';
import { publicPhotos, type PublicPhoto } from '../reviews/photos.js';

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
  /** Its shown photos, addressed by path (the widget shows thumbnails with `photos=yes`). */
  photos: PublicPhoto[];
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
    photos: publicPhotos(r, ''),
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

const withCount = (rating: Rating, counts: Map<number, number>): Rating => {
  const n = counts.get(rating.id) ?? 0;
  if (rating.helpful !== n) {
    rating.helpful = n;
    // ratings.json serialises each cached rating once (http/json-text.ts): this one changed in place.
    forgetJson(rating);
  }
  return rating;
};

function withCounts(ratings: Rating[], counts: Map<number, number>): Rating[] {
  for (const rating of ratings) withCount(rating, counts);
  return ratings;
}

const ratingsOf = (part: MerchantPart | PublicPart): Rating[] =>
  'merchant' in part ? part.merchant.map((m) => m.rating) : part.publicList.map((p) => p.rating);

/** What a part costs in memory, roughly. */
const partBytes = (part: MerchantPart | PublicPart): number =>
  256 + ('merchant' in part ? part.merchant.length : part.publicList.length) * APPROX_RATING_BYTES;

/** What the read model reads of the reviews (reviews/store.ts has them): the shop's lists and its version counter. */
export interface RatingsReviews {
  versionsOf(shopId: number): Promise<{ all: number; public: number }>;
  allListed(shopId: number, max: number): Promise<Review[] | null>;
  listedPage(
    shopId: number,
    q: { language?: string; offset: number; limit: number },
  ): Promise<{ reviews: Review[]; total: number }>;
  publishedScores(shopId: number): Promise<Pick<Review, 'rating' | 'ratings' | 'incentivised'>[]>;
  publishedCounts(shopId: number): Promise<{ total: number; verified: number }>;
  publishedPage(shopId: number, offset: number, limit: number): Promise<Review[]>;
  /** On MongoDB: the shopper's sort and filter as one indexed query, and its count (issue 20). */
  publishedChosen(
    shopId: number,
    filter: ChosenFilter,
    sort: ChosenSort,
    offset: number,
    limit: number,
  ): Promise<Review[]>;
  publishedChosenCount(shopId: number, filter: ChosenFilter): Promise<number>;
}

export class RatingsReadModel {
  /** Invalidations of each part (any shop) so far: a load keeps the part it was not asked for only if none came. */
  private readonly invalidations: Record<Part, number> = { merchant: 0, public: 0 };

  constructor(
    private readonly reviews: RatingsReviews,
    private readonly cache: Cache<MerchantPart | PublicPart>,
    /** Makes the photos' addresses in ratings absolute. */
    private readonly baseUrl = '',
    /** The shop's "Helpful" counts by review id (one read by `_id`: helpful/store.ts). */
    private readonly helpfulCounts: (shopId: number) => Promise<Map<number, number>> = async () => new Map(),
    /** Whether incentivised reviews count in the summary (INCENTIVISED_IN_SCORE). */
    private readonly scorePolicy: ScorePolicy = COUNT_ALL,
  ) {}

  /** A write of this process changed the shop's reviews: every write the merchant's part, some the public one. */
  invalidate(shopId: number, part: Part): void {
    this.invalidations[part]++;
    // A load already running may predate the change: it is not kept, and later callers start a new one.
    this.cache.delete(cacheKey(part, shopId));
  }

  async page(shopId: number, options: { language?: string; offset: number; limit: number }): Promise<RatingsPage> {
    const whole = await this.load(shopId, 'merchant');
    if (whole) {
      const matching = options.language
        ? (whole.byLanguage.get(options.language) ?? [])
        : whole.merchant.map((r) => r.rating);
      return { ratings: matching.slice(options.offset, options.offset + options.limit), total: matching.length };
    }
    const [{ reviews, total }, counts] = await Promise.all([
      this.reviews.listedPage(shopId, options),
      this.helpfulCounts(shopId),
    ]);
    return {
      ratings: withCounts(
        reviews.map((r) => toRating(r, this.baseUrl)),
        counts,
      ),
      total,
    };
  }

  /**
   * A vote was counted in this process: the cached ratings of the review (shared by both parts) count it at once,
   * in place; other processes read the counts again when their cached copy's TTL ends.
   */
  helpfulVoted(shopId: number, reviewId: number): void {
    // The two parts share their Rating objects when loaded together, not when one was loaded alone: each once.
    const seen = new Set<Rating>();
    for (const part of ['merchant', 'public'] as const) {
      const cached = this.cache.get(cacheKey(part, shopId));
      const rating = cached && ratingsOf(cached).find((r) => r.id === reviewId);
      if (rating && !seen.has(rating)) {
        seen.add(rating);
        rating.helpful = (rating.helpful ?? 0) + 1;
        forgetJson(rating);
      }
    }
  }

  async summary(shopId: number): Promise<RatingsSummary> {
    const whole = await this.load(shopId, 'public');
    if (whole) return whole.summary;
    return summarize(await this.reviews.publishedScores(shopId), this.scorePolicy);
  }

  /**
   * How many reviews are published: the summary's `amount` counts only those in the score (INCENTIVISED_IN_SCORE),
   * so paging through the list counts them all here.
   */
  async publishedCount(shopId: number): Promise<number> {
    const whole = await this.load(shopId, 'public');
    if (whole) return whole.publicList.length;
    return (await this.reviews.publishedCounts(shopId)).total;
  }

  /** The newest published reviews (not quarantined, deleted, spam or invalid), newest first, with replies. */
  async latestPublished(shopId: number, limit: number): Promise<PublishedReview[]> {
    const whole = await this.load(shopId, 'public');
    if (whole && limit <= PUBLISHED_KEPT) return whole.published.slice(0, limit);
    return (await this.reviews.publishedPage(shopId, 0, limit)).map(toPublished);
  }

  /**
   * Every published review, newest first, from memory (the shop page sorts and filters them as the shopper asks);
   * null for a shop too large to hold, which is paged in the database instead.
   */
  async allPublished(shopId: number): Promise<{ reviews: PublicRating[]; verified: number } | null> {
    const whole = await this.load(shopId, 'public');
    return whole ? { reviews: whole.publicList, verified: whole.publicVerified } : null;
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
    const [docs, { total, verified }, counts] = await Promise.all([
      this.reviews.publishedPage(shopId, offset, limit),
      this.reviews.publishedCounts(shopId),
      this.helpfulCounts(shopId),
    ]);
    const ratings = withCounts(
      docs.map((d) => toRating(d, this.baseUrl)),
      counts,
    );
    return { reviews: ratings.map((rating, i) => ({ rating, verified: docs[i]!.verified })), total, verified };
  }

  /**
   * Issue 20 on MongoDB: a page of the published reviews as the shopper filtered and ordered them, read from the
   * database's indexes (ReviewStore.publishedChosen) rather than from the shop's list in memory; the same reviews in
   * the same order as pages/listing.ts's applyListing gives from memory. The "Helpful" counts are no field of the
   * reviews (a vote never rewrites one): the voted reviews, few, are read by id and put first by their counts (the
   * read model's), then the others follow newest first, one indexed query.
   */
  async chosenPage(
    shopId: number,
    choice: { sort: ChosenSort | 'helpful'; stars: readonly number[]; photos: boolean },
    offset: number,
    limit: number,
  ): Promise<PublicPage> {
    const filter: ChosenFilter = { stars: choice.stars, photos: choice.photos };
    const [counts, { total, verified }] = await Promise.all([
      this.helpfulCounts(shopId),
      this.reviews.publishedCounts(shopId),
    ]);
    let docs: Review[];
    if (choice.sort !== 'helpful') {
      docs = await this.reviews.publishedChosen(shopId, filter, choice.sort, offset, limit);
    } else {
      const voted = [...counts].filter(([, n]) => n > 0).map(([id]) => id);
      const first = await this.reviews.publishedChosen(shopId, { ...filter, only: voted }, 'newest', 0, voted.length);
      // Stable: equal counts stay newest first.
      first.sort((a, b) => (counts.get(b.id) ?? 0) - (counts.get(a.id) ?? 0));
      const head = first.slice(offset, offset + limit);
      const rest = { ...filter, except: voted };
      docs = [
        ...head,
        ...(await this.reviews.publishedChosen(
          shopId,
          rest,
          'newest',
          Math.max(0, offset - first.length),
          limit - head.length,
        )),
      ];
    }
    const ratings = withCounts(
      docs.map((d) => toRating(d, this.baseUrl)),
      counts,
    );
    return {
      reviews: ratings.map((rating, i) => ({ rating, verified: docs[i]!.verified === true })),
      total,
      verified,
    };
  }

  /** How many published reviews the shopper's filter keeps, counted in the database (MongoDB: chosenPage). */
  async chosenCount(shopId: number, choice: { stars: readonly number[]; photos: boolean }): Promise<number> {
    return this.reviews.publishedChosenCount(shopId, { stars: choice.stars, photos: choice.photos });
  }

  /** One part of the shop's lists from the cache, loading it when missing; null when the shop is too large to hold. */
  private async load<P extends Part>(shopId: number, part: P): Promise<Parts[P] | null> {
    const cached = this.cache.get(cacheKey(part, shopId));
    if (cached !== undefined) return cached as Parts[P];
    // Requests that miss together share one check (and scan): when the TTL ends under load, every request would
    // otherwise start its own.
    const loaded = await this.cache.fetch(
      cacheKey(part, shopId),
      (stale) => this.revalidate(shopId, part, stale as Parts[P] | undefined),
      { bytes: partBytes },
    );
    return (loaded as Parts[P] | undefined) ?? null;
  }

  /** The part, from the copy past its TTL when the shop's version shows no change; undefined when too large. */
  private async revalidate<P extends Part>(
    shopId: number,
    part: P,
    stale: Parts[P] | undefined,
  ): Promise<Parts[P] | undefined> {
    const invalidations = { ...this.invalidations };
    const versions = await this.reviews.versionsOf(shopId);
    const version = part === 'merchant' ? versions.all : versions.public;
    const recheck = part === 'public' && isStalePublic(stale as PublicPart | undefined, versions.all);
    // Kept again for a TTL (a write of this process since would have deleted it: the cache does not keep this).
    if (stale && stale.version === version && !recheck) {
      // Votes change no review: their counts (one small read) are brought up to date in place, nothing reloaded.
      withCounts(ratingsOf(stale), await this.helpfulCounts(shopId));
      return stale;
    }
    const loaded = await this.loadFromDatabase(shopId, versions, invalidations, part);
    return loaded?.[part];
  }

  /**
   * Loads both parts with one read of the shop's reviews. The part asked for is cached (by the cache's fetch); the
   * other one too when the cache holds no fresh copy of it (a fresh copy is right already, and keeping it keeps its
   * objects) and no invalidation of that part came during the load.
   */
  private async loadFromDatabase(
    shopId: number,
    versions: { all: number; public: number },
    invalidations: Record<Part, number>,
    asked: Part,
  ): Promise<Parts | null> {
    const [docs, counts] = await Promise.all([
      this.reviews.allListed(shopId, WHOLE_LIST_MAX),
      this.helpfulCounts(shopId),
    ]);
    if (!docs) return null;
    // Sorted here: FerretDB sorts in its own process anyway, and this keeps one scan per load.
    docs.sort((a, b) => b.created.getTime() - a.created.getTime() || b.id - a.id);
    const merchant: MerchantPart = {
      version: versions.all,
      merchant: docs.map((d) => ({ rating: withCount(toRating(d, this.baseUrl), counts), language: d.language })),
      byLanguage: new Map(),
    };
    const published: PublicPart = {
      version: versions.public,
      allVersion: versions.all,
      loaded: Date.now(),
      summary: summarize(
        docs.filter((d) => d.published),
        this.scorePolicy,
      ),
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
    const other: Part = asked === 'merchant' ? 'public' : 'merchant';
    const otherKey = cacheKey(other, shopId);
    // A write during the load may make that part stale: then it is not kept.
    if (this.invalidations[other] === invalidations[other] && this.cache.get(otherKey) === undefined) {
      this.cache.set(otherKey, parts[other], partBytes(parts[other]));
    }
    return parts;
  }
}
