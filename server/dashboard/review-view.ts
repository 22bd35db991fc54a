// The dashboard's read model of a shop's reviews, every status (published, quarantined, awaiting confirmation,
// deleted). The embedded database reads the whole reviews collection for any filter but `{_id}` (about 300 ms at
// 20,000 reviews, README "Limits of the embedded database"), and the reviews page filters and searches on fields no
// query could use anyway (a substring of the comment). So each shop's reviews are read once into memory and kept
// up to date by reading only what changed:
// - writes of this process arrive through ReviewStore.onChange with the review as written, and are applied at once;
// - writes of other processes move the shop's counter (ReviewStore.versionsOf, one `_id` read per request): when it
//   moved by more than this process wrote, the reviews modified since the last check (less a minute for writes in
//   flight and other clocks) are read again, one query; unchanged shops cost no query but the counter's. That query
//   reads the whole collection on the embedded database (seconds on a busy machine), so an answer waits for it at
//   most CATCH_UP_WAIT_MS and otherwise answers from the view as it is: the other process's change shows once the
//   read lands.
// - hard deletes (unconfirmed reviews expiring) change no `modified`: a listener call that brings no newer version
//   marks the view for a reload in the background, and every view is reloaded in the background RELOAD_MS after it
//   was loaded, while the old one keeps answering.
// Memory is bounded: views are kept in an LRU over shops whose size is an estimate of their bytes (CACHE_MAX_MB, as
// every in-process cache); a shop whose view alone would not fit is not held but streamed from the database per
// request (slow on the embedded database, bounded memory: only the page asked for is kept).
import { LRUCache } from 'lru-cache';
import type { Review, ReviewStore } from '../reviews/store.js';
import { awaitsConfirmation, SUB_RATINGS, type SubRatings } from '../reviews/rules.js';
import { originFields, type ReviewOrigin } from '../reviews/origin.js';
import { summarize } from '../reviews/rating.js';
import type { Services } from '../services.js';

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

interface Overview {
  score: number | null;
  count: number;
  months: { month: string; score: number | null; count: number }[];
  distribution: Record<1 | 2 | 3 | 4 | 5, number>;
  sub_scores: Record<string, number | null>;
  answered_share: number;
}

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
 * ratings_summary.json gives (twice the mean, one decimal); a month's score is computed the same way.
 */
function overviewOf(rows: Iterable<ViewRow>, now: Date): Overview {
  const published: ViewRow[] = [];
  for (const r of rows) if (r.status === 'published') published.push(r);
  const summary = summarize(published);
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
    if (r.reply) answered++;
  }
  const given = (key: (typeof SUB_RATINGS)[number]) => published.some((r) => (r.ratings[key] ?? 0) > 0);
  return {
    score: published.length ? summary.rating_average : null,
    count: published.length,
    months: months.map((m) => {
      const { sum, count } = byMonth.get(m)!;
      return { month: m, score: count ? round1((2 * sum) / count) : null, count };
    }),
    distribution,
    // summarize() says 0 for "none given"; the dashboard says so with null.
    sub_scores: Object.fromEntries(SUB_RATINGS.map((k) => [k, given(k) ? summary.ratings_average[k] : null])),
    answered_share: published.length ? Math.round((answered / published.length) * 10_000) / 10_000 : 0,
  };
}

interface ShopView {
  rows: Map<number, ViewRow>;
  /** Newest first; null after a change until the next read sorts again. */
  sorted: ViewRow[] | null;
  /** The shop's `all` counter (ReviewStore.versionsOf) that the rows include. */
  version: number;
  /** Writes of this process applied since `version` was read (each moved the counter by one). */
  local: number;
  /** This process's clock (ms) just before `version` was read: the next delta reads changes from before it. */
  syncedAt: number;
  loadedAt: number;
  bytes: number;
  /** A change the rows cannot show (a hard delete) was seen: reload in the background. */
  reloadDue: boolean;
}

/** How far before the last check changes are read again: writes in flight then, and other processes' clocks. */
const SLACK_MS = 60_000;
/** A view is read again in full (in the background) this long after it was loaded, for what no counter tells. */
const RELOAD_MS = 15 * 60_000;
/** A shop found too large to hold is streamed per request; whether it still is, is checked again after this. */
const TOO_LARGE_RECHECK_MS = 10 * 60_000;
const BATCH = 1000;
/**
 * What an answer waits at most for the read of other processes' changes (ReviewViewLimits.catchUpWaitMs): about what
 * that read takes on a quiet machine at 20,000 reviews. A change another process made shows in this process's
 * answers once the read lands (the ratings cache's bound across processes, CACHE_TTL_MS, is of the same kind).
 */
const CATCH_UP_WAIT_MS = 300;

interface ReviewViewLimits {
  /** Bytes (estimated) of all views together; one shop's view may use all of it. */
  maxBytes: number;
  /** How long an answer waits for the read of other processes' changes before it answers from the view as it is. */
  catchUpWaitMs: number;
}

/** Waits for `work`, but at most `ms`. */
const within = (work: Promise<unknown>, ms: number): Promise<void> =>
  Promise.race([work.then(() => undefined), new Promise<void>((done) => setTimeout(done, ms).unref())]);

export class ReviewView {
  private readonly shops: LRUCache<number, ShopView>;
  private readonly pending = new Map<number, Promise<ShopView | null>>();
  /** Reads of other processes' changes under way, per shop. */
  private readonly catchUps = new Map<number, Promise<void>>();
  private readonly tooLarge = new Map<number, number>();

  constructor(
    private readonly reviews: ReviewStore,
    private readonly limits: ReviewViewLimits,
    private readonly clock: () => number = Date.now,
  ) {
    this.shops = new LRUCache({ maxSize: limits.maxBytes, sizeCalculation: (v) => Math.max(1, v.bytes) });
    reviews.onChange((shopId, review) => this.apply(shopId, review));
  }

  /** A page of the shop's reviews matching `filter`, newest first, and how many match. */
  async page(shopId: number, filter: ReviewFilter, offset: number, limit: number): Promise<{ items: ViewRow[]; total: number }> {
    const view = await this.view(shopId);
    if (view) {
      const sorted = this.sortedRows(view);
      const items: ViewRow[] = [];
      let total = 0;
      for (const row of sorted) {
        if (!matches(row, filter)) continue;
        if (total >= offset && items.length < limit) items.push(row);
        total++;
      }
      return { items, total };
    }
    return this.streamedPage(shopId, filter, offset, limit);
  }

  async overview(shopId: number, now: Date): Promise<Overview> {
    const view = await this.view(shopId);
    if (view) return overviewOf(view.rows.values(), now);
    const rows: ViewRow[] = [];
    // Only what the overview needs is kept of a shop too large to hold.
    await this.stream(shopId, (r) => {
      if (r.status === 'published') rows.push({ ...r, comment: null, text: '', name: '', order: '' });
    });
    return overviewOf(rows, now);
  }

  /** Whether the shop's view is held (for the benchmark and tests). */
  holds(shopId: number): boolean {
    return this.shops.has(shopId);
  }

  private sortedRows(view: ShopView): ViewRow[] {
    view.sorted ??= [...view.rows.values()].sort(newestFirst);
    return view.sorted;
  }

  /** A write of this process: applied at once, so the merchant sees their own reply or mark without a query. */
  private apply(shopId: number, review: Review): void {
    const view = this.shops.peek(shopId);
    if (!view) return;
    view.local++;
    const held = view.rows.get(review.id);
    // No newer version: not a write of the review but a removal (ReviewStore.removeUnconfirmed), which `modified`
    // cannot show.
    if (held && held.version >= review.version) {
      view.reloadDue = true;
      return;
    }
    this.put(view, toRow(review));
    this.shops.set(shopId, view);
  }

  private put(view: ShopView, row: ViewRow): void {
    const held = view.rows.get(row.id);
    if (held && held.version >= row.version) return;
    if (held) view.bytes -= rowBytes(held);
    view.rows.set(row.id, row);
    view.bytes += rowBytes(row);
    view.sorted = null;
  }

  /** The shop's view, brought up to date; null when the shop is too large to hold. Callers at once share one read. */
  private async view(shopId: number): Promise<ShopView | null> {
    const running = this.pending.get(shopId);
    if (running) return running;
    const work = this.refresh(shopId).finally(() => this.pending.delete(shopId));
    this.pending.set(shopId, work);
    return work;
  }

  private async refresh(shopId: number): Promise<ShopView | null> {
    const view = this.shops.get(shopId);
    if (!view) {
      const since = this.tooLarge.get(shopId);
      if (since !== undefined && this.clock() - since < TOO_LARGE_RECHECK_MS) return null;
      return this.load(shopId);
    }
    const running = this.catchUps.get(shopId);
    if (running) {
      await within(running, this.limits.catchUpWaitMs);
      return view;
    }
    const checkedAt = this.clock();
    const localBefore = view.local;
    const { all } = await this.reviews.versionsOf(shopId);
    if (all !== view.version + localBefore) {
      // Another process wrote: read what changed since the last check. On the embedded database that query reads
      // the whole collection, so the answer waits for it only so long; the view shows the changes once it lands.
      const catchUp = this.catchUp(shopId, view, all, localBefore, checkedAt).finally(() => this.catchUps.delete(shopId));
      this.catchUps.set(shopId, catchUp);
      await within(catchUp, this.limits.catchUpWaitMs);
      return view;
    }
    view.version = all;
    view.local -= localBefore;
    view.syncedAt = checkedAt;
    return this.settle(shopId, view);
  }

  private async catchUp(shopId: number, view: ShopView, all: number, localBefore: number, checkedAt: number): Promise<void> {
    try {
      for await (const batch of this.reviews.modifiedSince(shopId, new Date(view.syncedAt - SLACK_MS), BATCH)) {
        for (const review of batch) this.put(view, toRow(review));
      }
    } catch {
      // The next request tries again (the counter still differs); meanwhile the view answers as it is.
      return;
    }
    view.version = all;
    view.local -= localBefore;
    view.syncedAt = checkedAt;
    if (this.shops.peek(shopId) === view) this.settle(shopId, view);
  }

  /** Keeps the view in the LRU at its new size (or gives it up when it outgrew the bound); reloads when due. */
  private settle(shopId: number, view: ShopView): ShopView | null {
    if (view.bytes > this.limits.maxBytes) {
      this.shops.delete(shopId);
      this.tooLarge.set(shopId, this.clock());
      return null;
    }
    this.shops.set(shopId, view);
    if (view.reloadDue || this.clock() - view.loadedAt >= RELOAD_MS) this.reloadInBackground(shopId, view);
    return view;
  }

  private reloadInBackground(shopId: number, view: ShopView): void {
    view.reloadDue = false;
    view.loadedAt = this.clock();
    // The old view answers meanwhile; the new one replaces it when complete (its counter check then reads what
    // this process wrote during the load, since those writes went to the old one).
    this.load(shopId).catch(() => {
      view.reloadDue = true;
    });
  }

  /** Reads the shop's reviews into a new view; null (and nothing kept) when they would not fit. */
  private async load(shopId: number): Promise<ShopView | null> {
    const syncedAt = this.clock();
    const { all } = await this.reviews.versionsOf(shopId);
    const view: ShopView = {
      rows: new Map(),
      sorted: null,
      version: all,
      local: 0,
      syncedAt,
      loadedAt: syncedAt,
      bytes: 256,
      reloadDue: false,
    };
    for await (const batch of this.reviews.allOfShop(shopId, BATCH)) {
      for (const review of batch) this.put(view, toRow(review));
      if (view.bytes > this.limits.maxBytes) {
        this.shops.delete(shopId);
        this.tooLarge.set(shopId, this.clock());
        return null;
      }
    }
    this.tooLarge.delete(shopId);
    this.shops.set(shopId, view);
    return view;
  }

  private async stream(shopId: number, visit: (row: ViewRow) => void): Promise<void> {
    for await (const batch of this.reviews.allOfShop(shopId, BATCH)) for (const review of batch) visit(toRow(review));
  }

  /** A page of a shop too large to hold: one pass over its reviews, keeping only the newest offset+limit matches. */
  private async streamedPage(shopId: number, filter: ReviewFilter, offset: number, limit: number): Promise<{ items: ViewRow[]; total: number }> {
    const keep = offset + limit;
    const best: ViewRow[] = [];
    let total = 0;
    await this.stream(shopId, (row) => {
      if (!matches(row, filter)) return;
      total++;
      if (best.length === keep && newestFirst(row, best[keep - 1]!) >= 0) return;
      let lo = 0;
      let hi = best.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (newestFirst(best[mid]!, row) <= 0) lo = mid + 1;
        else hi = mid;
      }
      best.splice(lo, 0, row);
      if (best.length > keep) best.pop();
    });
    return { items: best.slice(offset), total };
  }
}

/** One view per service instance (the reviews and overview routes share it). */
const views = new WeakMap<Pick<Services, 'reviews' | 'config'>, ReviewView>();
export function reviewViewOf(services: Pick<Services, 'reviews' | 'config'>): ReviewView {
  let view = views.get(services);
  if (!view) {
    view = new ReviewView(services.reviews, { maxBytes: services.config.cache.maxBytes, catchUpWaitMs: CATCH_UP_WAIT_MS });
    views.set(services, view);
  }
  return view;
}
