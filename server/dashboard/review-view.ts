// The dashboard's read model of a shop's reviews, every status (published, quarantined, awaiting confirmation,
// deleted), held in memory (shop-view.ts says how it stays up to date and bounded): the reviews page filters and
// searches on fields no query could use anyway (a substring of the comment). The counter is ReviewStore.versionsOf's
// `all`; changes are the reviews whose `modified` moved; hard deletes (unconfirmed reviews expiring) reach the
// listener with no newer version and reload the view.
import type { Overview } from './contract.js';
import { ShopView, type HeldShop, type RowKind, type RowSource, type ShopViewLimits } from './shop-view.js';
import type { Cache } from '../cache.js';
import type { Review } from '../reviews/model.js';
import { awaitsConfirmation, type SUB_RATINGS, type SubRatings } from '../reviews/rules.js';
import { originFields, type ReviewOrigin } from '../reviews/origin.js';
import { COUNT_ALL, countsInScore, summarize, type ScorePolicy } from '../reviews/rating.js';
import { publicPhotos, type PublicPhoto } from '../reviews/photos.js';

export const REVIEW_STATUSES = ['published', 'quarantined', 'awaiting_confirmation', 'deleted'] as const;
type ReviewStatus = (typeof REVIEW_STATUSES)[number];

/** What the merchant sees of a review's state. Spam and reviews not (yet) valid count as quarantined: hidden. */
export function statusOf(r: Pick<Review, 'deleted' | 'published' | 'confirmToken' | 'quarantine'>): ReviewStatus {
  if (r.deleted) return 'deleted';
  if (r.published) return 'published';
  if (awaitsConfirmation(r)) return 'awaiting_confirmation';
  return 'quarantined';
}

/** A review as the dashboard lists it: no e-mail address, no link secrets, no product texts. */
export interface ViewRow {
  id: number;
  version: number;
  /** ms since the epoch: sorting compares numbers. */
  created: number;
  modified: number;
  name: string;
  rating: number;
  ratings: SubRatings;
  comment: string | null;
  language: string;
  country: string;
  order: string;
  status: ReviewStatus;
  origin: ReviewOrigin;
  incentivised: boolean;
  imported_from: string | null;
  read: boolean;
  reply: { text: string; date: Date; notify: boolean } | null;
  /** The UTC day it was written (YYYY-MM-DD), for date ranges. */
  day: string;
  /** Comment and name, lower-cased: where a search looks. */
  text: string;
  /** The shown photos of a published review, by path (issue 20); absent when none. */
  photos?: PublicPhoto[];
}

/** Search is a plain substring (never a pattern), case-insensitive. */
export const searchable = (text: string): string => text.toLowerCase();

export function toRow(r: Review): ViewRow {
  const { origin, incentivised, imported_from } = originFields(r);
  return {
    id: r.id,
    version: r.version,
    created: r.created.getTime(),
    modified: r.modified.getTime(),
    name: r.name,
    rating: r.rating,
    ratings: { ...r.ratings },
    comment: r.comment,
    language: r.language,
    country: r.country,
    order: r.order,
    status: statusOf(r),
    origin,
    incentivised,
    imported_from,
    read: r.read,
    reply: r.reply ? { text: r.reply.text, date: r.reply.date, notify: r.reply.notify } : null,
    day: r.created.toISOString().slice(0, 10),
    text: searchable(`${r.comment ?? ''}\n${r.name}`),
    // Only what the public address serves (a published review's shown photos): the others would not load.
    ...(r.published && r.photos?.length ? { photos: publicPhotos(r, '') } : {}),
  };
}

/** A rough size in memory (strings are UTF-16): what the LRU's byte bound counts. */
const rowBytes = (r: ViewRow): number =>
  240 + 2 * (r.name.length + (r.comment?.length ?? 0) + r.order.length + (r.reply?.text.length ?? 0) + r.text.length);

export interface ReviewFilter {
  rating?: number;
  status?: ReviewStatus;
  language?: string;
  reply?: 'with' | 'without';
  unread?: boolean;
  /** Inclusive UTC days, YYYY-MM-DD. */
  from?: string;
  to?: string;
  /** Already passed through searchable(). */
  q?: string;
}

function matches(row: ViewRow, f: ReviewFilter): boolean {
  return (
    (f.rating === undefined || row.rating === f.rating) &&
    (f.status === undefined || row.status === f.status) &&
    (f.language === undefined || row.language === f.language) &&
    (f.reply === undefined || (f.reply === 'with') === (row.reply !== null)) &&
    (!f.unread || !row.read) &&
    (f.from === undefined || row.day >= f.from) &&
    (f.to === undefined || row.day <= f.to) &&
    (f.q === undefined || row.text.includes(f.q))
  );
}

/** Newest first; the id orders reviews written in the same millisecond. */
const newestFirst = (a: ViewRow, b: ViewRow): number => b.created - a.created || b.id - a.id;

const round1 = (n: number) => Math.round(n * 10) / 10;

/** The 12 calendar months (UTC) up to and including the current one, oldest first. */
export function lastTwelveMonths(now: Date): string[] {
  const months: string[] = [];
  for (let back = 11; back >= 0; back--) {
    const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 1));
    months.push(d.toISOString().slice(0, 7));
  }
  return months;
}

/**
 * The overview page's figures over the published reviews: what the public sees, so the score is the one
 * ratings_summary.json gives (twice the mean, one decimal, over the reviews that count under the operator's
 * INCENTIVISED_IN_SCORE policy); a month's score is computed the same way. The answered share is of all published.
 */
function overviewOf(rows: Iterable<ViewRow>, now: Date, policy: ScorePolicy): Overview {
  const all: ViewRow[] = [];
  for (const r of rows) if (r.status === 'published') all.push(r);
  const published = all.filter((r) => countsInScore(r, policy));
  const summary = summarize(published, policy);
  const months = lastTwelveMonths(now);
  const byMonth = new Map(months.map((m) => [m, { sum: 0, count: 0 }]));
  const distribution = { 1: 0, 2: 0, 3: 0, 4: 0, 5: 0 };
  let answered = 0;
  for (const r of published) {
    const month = byMonth.get(r.day.slice(0, 7));
    if (month) {
      month.sum += r.rating;
      month.count++;
    }
    if (r.rating >= 1 && r.rating <= 5) distribution[r.rating as 1 | 2 | 3 | 4 | 5]++;
  }
  for (const r of all) if (r.reply) answered++;
  const given = (key: (typeof SUB_RATINGS)[number]) => published.some((r) => (r.ratings[key] ?? 0) > 0);
  // summarize() says 0 for "none given"; the dashboard says so with null.
  const subScore = (key: (typeof SUB_RATINGS)[number]) => (given(key) ? summary.ratings_average[key] : null);
  return {
    score: published.length ? summary.rating_average : null,
    count: published.length,
    months: months.map((m) => {
      const { sum, count } = byMonth.get(m)!;
      return { month: m, score: count ? round1((2 * sum) / count) : null, count };
    }),
    distribution,
    sub_scores: {
      shippingtime: subScore('shippingtime'),
      customerservice: subScore('customerservice'),
      pricequality: subScore('pricequality'),
      aftersale: subScore('aftersale'),
    },
    answered_share: all.length ? Math.round((answered / all.length) * 10_000) / 10_000 : 0,
  };
}

/** What the view reads of the reviews (reviews/store.ts has them), and the writes it follows. */
export interface ViewReviews {
  versionsOf(shopId: number): Promise<{ all: number; public: number }>;
  allOfShops(shopIds: readonly number[], batchSize: number): AsyncGenerator<Review[]>;
  modifiedSince(shopId: number, since: Date | undefined, batchSize: number): AsyncGenerator<Review[]>;
  onChange(listener: (shopId: number, review: Review) => void): void;
}

/** The reviews as the view reads them: the store's records as rows, its `all` counter as the change counter. */
function reviewRows(reviews: ViewReviews): RowSource<ViewRow> {
  const rows = async function* (batches: AsyncIterable<Review[]>) {
    for await (const batch of batches) yield batch.map(toRow);
  };
  return {
    // Hard deletes (unconfirmed reviews expiring) are not counted apart: other processes' views see them at their
    // next full read (RELOAD_MS).
    counter: async (shopId) => ({ all: (await reviews.versionsOf(shopId)).all, removals: 0 }),
    all: async function* (shopIds, size) {
      for await (const batch of reviews.allOfShops(shopIds, size))
        yield batch.map((r) => ({ shopId: r.shopId, row: toRow(r) }));
    },
    changedSince: (shopId, since, size) => rows(reviews.modifiedSince(shopId, since, size)),
    // A removal (ReviewStore.removeUnconfirmed) calls with the review as it was: no newer version, which ShopView
    // takes for a removal.
    subscribe: (apply) => reviews.onChange((shopId, review) => apply(shopId, { row: toRow(review) })),
  };
}

const REVIEW_ROWS: RowKind<ViewRow> = {
  key: (r) => r.id,
  version: (r) => r.version,
  bytes: rowBytes,
  newestFirst,
};

export class ReviewView {
  private readonly view: ShopView<ViewRow>;

  constructor(
    reviews: ViewReviews,
    cache: Cache<HeldShop<ViewRow>>,
    limits: ShopViewLimits,
    clock: () => number = Date.now,
  ) {
    this.view = new ShopView(reviewRows(reviews), REVIEW_ROWS, cache, limits, clock);
  }

  /** A page of the shop's reviews matching `filter`, newest first, and how many match. */
  page(
    shopId: number,
    filter: ReviewFilter,
    offset: number,
    limit: number,
  ): Promise<{ items: ViewRow[]; total: number }> {
    return this.view.page(shopId, (row) => matches(row, filter), offset, limit);
  }

  async overview(shopId: number, now: Date, policy: ScorePolicy = COUNT_ALL): Promise<Overview> {
    const rows = await this.view.rows(shopId);
    if (rows) return overviewOf(rows, now, policy);
    const published: ViewRow[] = [];
    // Only what the overview needs is kept of a shop too large to hold.
    await this.view.stream(shopId, (r) => {
      if (r.status === 'published') published.push({ ...r, comment: null, text: '', name: '', order: '' });
    });
    return overviewOf(published, now, policy);
  }

  /** Whether the shop's view is held (for the benchmark and tests). */
  holds(shopId: number): boolean {
    return this.view.holds(shopId);
  }

  /** Reads these shops' views in the background order given (at start: the shops with dashboard users). */
  warmUp(shopIds: Iterable<number>): Promise<void> {
    return this.view.warmUp(shopIds);
  }
}
