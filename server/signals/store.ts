// What the signals need, kept small and read by `_id` (FerretDB scans for anything else):
// - `signal_reviews` (+ `signal_reviews_claims`): a work queue (server/queue/work-queue.ts) of the reviews written and
//   not yet checked (key: the review id); the worker takes them under a claim and drains it.
// - `signal_counters`: one document per shop, reviews per UTC day (the last 91) and per UTC hour (the last 25),
//   kept as reviews are checked: `burst` reads one document instead of counting history.
// - `signal_claims`: insert-only, one per signal raised (`burst:<shop>:<day>`, `insider:<review>`), so a signal is
//   raised once whatever the retries.
// - `signal_network_notes` (+ `signal_network_notes_claims`): a work queue of the network notes of reviews written and
//   not yet checked (key: the review id): the HMAC of the network and the browser family, never the address
//   (noteSubmission).
// - `signal_networks`: per shop and UTC day (`_id` = `<shop>:<YYYY-MM-DD>`), the notes of that day's reviews;
//   `signal_network_days` (`_id` = `YYYY-MM-DD`) lists the shops with a bucket that day, so that a day's buckets are
//   deleted by `_id` when 30 days old, whether or not the shop has had a review since.
// - `signal_text_days` (duplicate-check.ts): the `duplicate_text` blocks.
// Versions before the work queues kept the two queues in `signal_queue` and `signal_network_queue`
// (server/migrations/signal-queues.ts moves them).
import type { Collection, Db } from '../db/index.js';
import { isDuplicateKey } from '../db/index.js';
import { type TakenItem, WorkQueue } from '../queue/work-queue.js';
import { addDays } from '../time.js';
import type { Review, WriteFollower } from '../reviews/model.js';
import { BURST_HISTORY_DAYS, dayKey, hourKey } from './rules.js';
import { type BrowserFamily, browserFamily, networkKey, networkOf } from './network.js';

/** A review waiting to be checked. */
export interface PendingReview {
  reviewId: number;
  shopId: number;
  /** Imports raise no signal but `burst`, at most one per import. */
  imported: boolean;
  /** When it was written: what `burst` counts. */
  at: Date;
}

export const SIGNAL_REVIEW_QUEUE = 'signal_reviews';
export const SIGNAL_NETWORK_QUEUE = 'signal_network_notes';
/** How long a run holds its batch (a run checks up to a few hundred reviews). */
const LEASE_MS = 10 * 60_000;

/** A review's network note: what `shared_network` compares. */
export interface NetworkNote {
  /** HMAC-SHA256(SIGNAL_KEY, shop + network), base64url (network.ts). */
  key: string;
  family: BrowserFamily;
}

/** A review's network note waiting to be checked. */
export interface PendingNetwork extends NetworkNote {
  reviewId: number;
  shopId: number;
  at: Date;
}

interface NetworkBucket {
  _id: string;
  entries: (NetworkNote & { review: number })[];
}

interface Counters {
  _id: number;
  days: Record<string, number>;
  hours: Record<string, number>;
}

export class SignalStore implements WriteFollower {
  private readonly reviewQueue: WorkQueue<PendingReview>;
  private readonly counters: Collection<Counters>;
  private readonly claims: Collection<{ _id: string; at: Date }>;
  private readonly networkQueue: WorkQueue<PendingNetwork>;
  private readonly networks: Collection<NetworkBucket>;
  private readonly networkDays: Collection<{ _id: string; shops: number[] }>;

  constructor(
    db: Db,
    private readonly now: () => Date = () => new Date(),
    /** `shared_network`: whether it is on, and SIGNAL_KEY. */
    private readonly network: { on: boolean; key: string } = { on: false, key: '' },
  ) {
    this.reviewQueue = new WorkQueue<PendingReview>(db, SIGNAL_REVIEW_QUEUE, now);
    this.counters = db.collection<Counters>('signal_counters');
    this.claims = db.collection<{ _id: string; at: Date }>('signal_claims');
    this.networkQueue = new WorkQueue<PendingNetwork>(db, SIGNAL_NETWORK_QUEUE, now);
    this.networks = db.collection<NetworkBucket>('signal_networks');
    this.networkDays = db.collection<{ _id: string; shops: number[] }>('signal_network_days');
  }

  async ensureIndexes(): Promise<void> {
    await this.reviewQueue.ensureIndexes();
    await this.networkQueue.ensureIndexes();
  }

  /** A new review joins the queue as it is written (a repair may add it again: the claims make that harmless). */
  async follow(before: Review | undefined, after: Review): Promise<void> {
    if (before !== undefined || after.version !== 1) return;
    const at = this.now();
    await this.reviewQueue.enqueue(
      String(after.id),
      { reviewId: after.id, shopId: after.shopId, imported: after.source === 'import', at },
      at,
    );
  }

  /**
   * Up to `limit` reviews waiting to be checked, claimed for `holder` (those another run holds are left to it),
   * oldest first. The run finishes each (`reviewChecked`), retries it later, or lets go (`release`).
   */
  takeReviews(holder: string, limit: number): Promise<TakenItem<PendingReview>[]> {
    return this.reviewQueue.take(holder, limit, LEASE_MS);
  }

  reviewChecked(holder: string, key: string): Promise<void> {
    return this.reviewQueue.finish(holder, key);
  }

  /** Up to `limit` network notes waiting to be checked, claimed for `holder` as `takeReviews`. */
  takeNetworks(holder: string, limit: number): Promise<TakenItem<PendingNetwork>[]> {
    return this.networkQueue.take(holder, limit, LEASE_MS);
  }

  networkChecked(holder: string, key: string): Promise<void> {
    return this.networkQueue.finish(holder, key);
  }

  /**
   * A check that failed (the database, a bug): tried again at `at`, the attempt counted; with no `at`, given up (the
   * caller logs it). Either queue, by the item's key.
   */
  async checkFailed(
    queue: 'reviews' | 'networks',
    holder: string,
    key: string,
    error: string,
    at: Date | undefined,
  ): Promise<void> {
    const work = queue === 'reviews' ? this.reviewQueue : this.networkQueue;
    if (at) await work.retryLater(holder, key, at, error);
    else await work.giveUp(holder, key);
  }

  /** Lets go of what `holder` still holds in both queues (a run that ends): those items stay due. */
  async release(holder: string): Promise<void> {
    await this.reviewQueue.release(holder);
    await this.networkQueue.release(holder);
  }

  /** Claims of runs that died before `before` (no TTL indexes on FerretDB). */
  async prune(before: Date): Promise<void> {
    await this.reviewQueue.prune(before);
    await this.networkQueue.prune(before);
  }

  /**
   * Counts one review of the shop at `at` and answers the reviews of the last 24 hours (this hour and the 23 before)
   * and of each of the 90 days before today. Old keys are dropped as they fall out.
   */
  async count(shopId: number, at: Date): Promise<{ last24h: number; previousDays: number[] }> {
    const hour = hourKey(at);
    const day = dayKey(at);
    const found = await this.counters.findOne({ _id: shopId });
    const days = { ...(found?.days ?? {}) };
    const hours = { ...(found?.hours ?? {}) };
    days[day] = (days[day] ?? 0) + 1;
    hours[hour] = (hours[hour] ?? 0) + 1;
    const oldestDay = dayKey(addDays(at, -(BURST_HISTORY_DAYS + 1)));
    const oldestHour = hourKey(new Date(at.getTime() - 24 * 3_600_000));
    for (const key of Object.keys(days)) if (key < oldestDay) delete days[key];
    for (const key of Object.keys(hours)) if (key < oldestHour) delete hours[key];
    await this.counters.replaceOne({ _id: shopId }, { days, hours }, { upsert: true });
    const last24h = Object.entries(hours)
      .filter(([key]) => key > oldestHour)
      .reduce((sum, [, n]) => sum + n, 0);
    const previousDays = Array.from({ length: BURST_HISTORY_DAYS }, (_, i) => days[dayKey(addDays(at, -(i + 1)))] ?? 0);
    return { last24h, previousDays };
  }

  /** Raises a signal once: false when it was raised already. */
  async claim(id: string): Promise<boolean> {
    try {
      await this.claims.insertOne({ _id: id, at: this.now() });
      return true;
    } catch (err) {
      if (isDuplicateKey(err)) return false;
      throw err;
    }
  }

  /**
   * Where a writer submits a review (the review page's form, the pop-up's review API, the experience form), after the
   * review is written: the HMAC of the sender's network and the browser family join the queue the worker checks
   * (`shared_network`). The address itself is never stored; nothing is noted while the signal is off.
   */
  async noteSubmission(
    review: Pick<Review, 'id' | 'shopId'>,
    ip: string,
    userAgent: string | undefined,
  ): Promise<void> {
    const network = this.network.on ? networkOf(ip) : null;
    if (!network) return;
    const note: NetworkNote = {
      key: networkKey(this.network.key, review.shopId, network),
      family: browserFamily(userAgent),
    };
    await this.queueNetworkNote(review, note, this.now());
  }

  /**
   * Queues a review, or a network note, the version before the work queues queued (server/migrations/signal-queues.ts),
   * due when it was written; false when it was moved already.
   */
  adoptReview(pending: PendingReview): Promise<boolean> {
    return this.reviewQueue.enqueue(String(pending.reviewId), pending, pending.at);
  }

  adoptNetwork(pending: PendingNetwork): Promise<boolean> {
    return this.networkQueue.enqueue(String(pending.reviewId), pending, pending.at);
  }

  /** Queues a review's network note written at `at` (once per review: a repeat is a no-op). */
  async queueNetworkNote(review: Pick<Review, 'id' | 'shopId'>, note: NetworkNote, at: Date): Promise<void> {
    await this.networkQueue.enqueue(String(review.id), { reviewId: review.id, shopId: review.shopId, ...note, at }, at);
  }

  /** Keeps a review's note in its shop's bucket of the day (once, whatever the retries). */
  async keepNetwork(shopId: number, day: string, review: number, note: NetworkNote): Promise<void> {
    await this.networkDays.updateOne({ _id: day }, { $addToSet: { shops: shopId } }, { upsert: true });
    const id = `${shopId}:${day}`;
    const bucket = await this.networks.findOne({ _id: id });
    if (bucket?.entries.some((e) => e.review === review)) return;
    await this.networks.updateOne(
      { _id: id },
      { $push: { entries: { review, key: note.key, family: note.family } } },
      { upsert: true },
    );
  }

  /** The shop's notes of the given days, one read by `_id` per day. */
  async networksOf(shopId: number, days: readonly string[]): Promise<NetworkBucket['entries']> {
    const out: NetworkBucket['entries'] = [];
    for (const day of days) out.push(...((await this.networks.findOne({ _id: `${shopId}:${day}` }))?.entries ?? []));
    return out;
  }

  /** Deletes a day's buckets of every shop, by `_id`. */
  async dropNetworkDay(day: string): Promise<void> {
    const index = await this.networkDays.findOne({ _id: day });
    if (!index) return;
    for (const shopId of index.shops) await this.networks.deleteOne({ _id: `${shopId}:${day}` });
    await this.networkDays.deleteOne({ _id: day });
  }
}
