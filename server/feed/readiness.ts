// Google readiness: this shop's figures next to Google's published thresholds, as pure functions. The figures are
// tallied while the feed is built (the build reads every published review once anyway), kept with the built feed,
// and read by the dashboard without reading a review again. The 12-month window is applied when they are read,
// from counts per day, so that figures a month old do not need a rebuild.
import { DAY_MS, formatDate } from '../time.js';
import { type FeedReview, hasMatchingIds, isImported, productIdentity, productReviewsOf } from './google-feed.js';

/** Google's thresholds, as its Merchant Center help gives them (docs/google.md). */
const THRESHOLDS = {
  /** Product ratings: about 50 product reviews across the catalogue before stars show in Shopping. */
  productReviews: 50,
  /** Store (seller) ratings: about 100 reviews in the last 12 months, per country. */
  storeReviewsPerCountry: 100,
  /** Seller ratings in ads: an average of at least 3.5 of 5. */
  averageScore: 3.5,
} as const;

/** Days kept per country: a year and a month, so that the window can move for a month without a rebuild. */
const DAYS_KEPT = 396;

/** What the build tallies; plain JSON, stored beside the feed. */
export interface ReadinessTally {
  /** Product reviews in the feed, and the sum of their scores (1–5). */
  productReviews: number;
  productScoreSum: number;
  /** Distinct products (by identity) with a review in the feed; those of them without GTIN or MPN + brand. */
  productsInFeed: number;
  productsWithoutIds: number;
  /** Distinct products with a reviewed text left out because they have no http(s) URL. */
  productsWithoutUrl: number;
  /** Published reviews of the shop (not imported) per day (`YYYY-MM-DD`) and country ('' unknown): count and score sum. */
  storeReviewsByDay: Record<string, Record<string, [number, number]>>;
  /** Published imported reviews of the shop (never in the feed). */
  importedReviews: number;
}

/** Tallies the reviews as the build reads them; `products` is bounded by the catalogue, not by the reviews. */
export class ReadinessCounter {
  private readonly tally: ReadinessTally = {
    productReviews: 0,
    productScoreSum: 0,
    productsInFeed: 0,
    productsWithoutIds: 0,
    productsWithoutUrl: 0,
    storeReviewsByDay: {},
    importedReviews: 0,
  };
  /** Identity → 'in' (has a review in the feed; wins) or 'no_url'. */
  private readonly products = new Map<string, 'in' | 'no_url'>();
  private readonly withoutIds = new Set<string>();
  private readonly since: number;

  constructor(now: Date) {
    this.since = now.getTime() - DAYS_KEPT * DAY_MS;
  }

  add(review: FeedReview): void {
    if (!review.published || review.deleted || review.is_spam) return;
    if (isImported(review)) {
      this.tally.importedReviews++;
      return;
    }
    const created = new Date(review.created);
    if (created.getTime() >= this.since) {
      const date = formatDate(created);
      const day = this.tally.storeReviewsByDay[date] ?? {};
      this.tally.storeReviewsByDay[date] = day;
      const country = /^[A-Z]{2}$/.test(review.country ?? '') ? review.country : '';
      const [n, sum] = day[country] ?? [0, 0];
      day[country] = [n + 1, sum + review.rating];
    }
    for (const { entry, leftOut } of productReviewsOf(review)) {
      if (leftOut === 'no_text') continue;
      const identity = productIdentity(entry.product) || `url:${entry.product.url}|${entry.product.name}`;
      if (leftOut === 'no_url') {
        if (!this.products.has(identity)) this.products.set(identity, 'no_url');
        continue;
      }
      this.tally.productReviews++;
      this.tally.productScoreSum += entry.score;
      this.products.set(identity, 'in');
      if (!hasMatchingIds(entry.product)) this.withoutIds.add(identity);
    }
  }

  result(): ReadinessTally {
    let inFeed = 0;
    let withoutUrl = 0;
    let withoutIds = 0;
    for (const [identity, state] of this.products) {
      if (state === 'in') {
        inFeed++;
        if (this.withoutIds.has(identity)) withoutIds++;
      } else withoutUrl++;
    }
    return { ...this.tally, productsInFeed: inFeed, productsWithoutUrl: withoutUrl, productsWithoutIds: withoutIds };
  }
}

interface CountryFigure {
  /** Two-letter code, or 'unknown'. */
  country: string;
  reviews: number;
  meets: boolean;
}

export interface Readiness {
  product_reviews: { count: number; threshold: number; meets: boolean };
  products_left_out: { without_url: number; without_ids: number; in_feed: number };
  store_reviews_12_months: { threshold: number; countries: CountryFigure[] };
  average_score: {
    /** Of the product reviews in the feed, out of 5; null without any. */
    products: number | null;
    /** Of the store reviews of the last 12 months, out of 5; null without any. */
    store: number | null;
    threshold: number;
    meets: boolean;
  };
  imported_reviews: number;
}

const oneDecimal = (n: number) => Math.round(n * 10) / 10;

/** The figures as of `now` (the 12 months end then) from a build's tally. */
export function readinessOf(tally: ReadinessTally, now: Date): Readiness {
  const since = new Date(now);
  since.setUTCFullYear(since.getUTCFullYear() - 1);
  const from = formatDate(since);
  const byCountry = new Map<string, number>();
  let storeCount = 0;
  let storeSum = 0;
  for (const [day, countries] of Object.entries(tally.storeReviewsByDay)) {
    if (day < from) continue;
    for (const [country, [n, sum]] of Object.entries(countries)) {
      byCountry.set(country || 'unknown', (byCountry.get(country || 'unknown') ?? 0) + n);
      storeCount += n;
      storeSum += sum;
    }
  }
  const countries = [...byCountry]
    .map(([country, reviews]) => ({ country, reviews, meets: reviews >= THRESHOLDS.storeReviewsPerCountry }))
    .sort((a, b) => b.reviews - a.reviews || a.country.localeCompare(b.country));
  const products = tally.productReviews ? oneDecimal(tally.productScoreSum / tally.productReviews) : null;
  const store = storeCount ? oneDecimal(storeSum / storeCount) : null;
  return {
    product_reviews: {
      count: tally.productReviews,
      threshold: THRESHOLDS.productReviews,
      meets: tally.productReviews >= THRESHOLDS.productReviews,
    },
    products_left_out: {
      without_url: tally.productsWithoutUrl,
      without_ids: tally.productsWithoutIds,
      in_feed: tally.productsInFeed,
    },
    store_reviews_12_months: { threshold: THRESHOLDS.storeReviewsPerCountry, countries },
    average_score: {
      products,
      store,
      threshold: THRESHOLDS.averageScore,
      meets: store !== null && store >= THRESHOLDS.averageScore,
    },
    imported_reviews: tally.importedReviews,
  };
}
