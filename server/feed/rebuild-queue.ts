// Rebuilds of a shop's Google feed queued by the change itself (issue 22): Google treats each upload as complete and
// deletes what a feed leaves out, so a product review that is removed, unpublished, erased or changed must be out of
// (or changed in) the file Google gets at its next fetch. A fetch alone cannot promise that for a large shop: it
// answers the previous build while the rebuild it started runs (google-build.ts), and Merchant Center fetches once a
// day. So a write that changes what the feed sends of a review queues the shop's rebuild for the worker, a short
// debounce later, and the next fetch finds it built (docs/decisions/feed.md).
//
// One work queue (server/queue/work-queue.ts): `google_feed_rebuilds` (+ `google_feed_rebuilds_claims`), two keys per
// shop at most:
// - `<shop>`: a change waits for its rebuild. Queued once however many changes come before it is taken (enqueue is a
//   no-op while it is queued): a moderator removing 100 reviews causes one build;
// - `<shop>:running`: the rebuild taken and not yet done, due a lease later. The worker queues it and only then deletes
//   `<shop>`, before it reads the shop's reviews: a change during the build queues `<shop>` again (nothing is lost to
//   the no-op enqueue), and a worker that dies mid-build leaves `<shop>:running` due for the next one.
// Only shops that use the feed queue anything: a feed key fetched with the valid key within FEED_IN_USE_DAYS. Other
// shops' writes cost nothing more than the comparison below (and a key look-up by `_id` for reviews that were in
// their feed). New product reviews queue nothing: a feed missing a brand-new review until the next fetch is
// harmless (that fetch starts the rebuild that adds it), while a removed review still present is not.
import type { Db } from '../db/index.js';
import { type TakenItem, WorkQueue } from '../queue/work-queue.js';
import type { Review, WriteFollower } from '../reviews/model.js';
import { productReviewsOf, productReviewXml } from './google-feed.js';
import type { FeedKey, FeedKeyStore } from './key-store.js';

const FEED_REBUILD_QUEUE = 'google_feed_rebuilds';
/** A change's rebuild waits this long, so that the changes of a burst (bulk moderation) make one build. */
export const FEED_REBUILD_DEBOUNCE_MS = 60_000;
/** A shop whose feed was not fetched with its key for this long is not using it: its changes queue nothing. */
export const FEED_IN_USE_DAYS = 30;
/** How long a rebuild holds its `:running` item before another worker takes it over (a 200,000-review build: minutes). */
export const FEED_REBUILD_LEASE_MS = 15 * 60_000;

export interface FeedRebuild {
  shopId: number;
}

const RUNNING = ':running';
export const runningKey = (shopId: number): string => `${shopId}${RUNNING}`;
export const isRunningKey = (key: string): boolean => key.endsWith(RUNNING);

/** Context for rendering a review's entries to compare them: the same for both versions, so only the review counts. */
const COMPARE_CTX = { shop: { id: 0, name: '', url: '', logo: '' }, brandName: '', baseUrl: '' };

/** What the feed sends of a review: its product entries as rendered, '' when none. */
function sentOf(review: Review): string {
  return productReviewsOf(review)
    .filter((p) => p.leftOut === null)
    .map((p) => productReviewXml(p.entry, COMPARE_CTX))
    .join('');
}

/**
 * Whether a write changes something Google has: what the feed sent of the review before differs after (removed,
 * unpublished, erased, edited). A new review (`before` undefined, version 1) and a review that was not in the feed
 * do not count; a repair (`before` undefined, a later version) does, as its earlier state is not known.
 */
export function changesSent(before: Review | undefined, after: Review): boolean {
  if (before === undefined) return after.version > 1;
  const was = sentOf(before);
  return was !== '' && was !== sentOf(after);
}

/** Whether the shop uses its feed: a key fetched with within FEED_IN_USE_DAYS of `now`. */
export function feedInUse(key: Pick<FeedKey, 'lastFetched'> | null, now: Date): boolean {
  return !!key?.lastFetched && now.getTime() - key.lastFetched.getTime() <= FEED_IN_USE_DAYS * 86_400_000;
}

export class FeedRebuildQueue implements WriteFollower {
  private readonly work: WorkQueue<FeedRebuild>;

  constructor(
    db: Db,
    private readonly feedKeys: Pick<FeedKeyStore, 'find'>,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.work = new WorkQueue<FeedRebuild>(db, FEED_REBUILD_QUEUE, now);
  }

  ensureIndexes(): Promise<void> {
    return this.work.ensureIndexes();
  }

  /** A write that changes what the shop's feed sends queues its rebuild, when the shop uses its feed. */
  async follow(before: Review | undefined, after: Review): Promise<void> {
    if (!changesSent(before, after)) return;
    if (!feedInUse(await this.feedKeys.find(after.shopId), this.now())) return;
    await this.changed(after.shopId);
  }

  /** The shop's feed is to be rebuilt a debounce from now; a no-op while a rebuild of it waits already. */
  async changed(shopId: number): Promise<boolean> {
    const due = new Date(this.now().getTime() + FEED_REBUILD_DEBOUNCE_MS);
    return this.work.enqueue(String(shopId), { shopId }, due);
  }

  /** Up to `limit` rebuilds due, claimed for `holder`. */
  take(holder: string, limit: number): Promise<TakenItem<FeedRebuild>[]> {
    return this.work.take(holder, limit, FEED_REBUILD_LEASE_MS);
  }

  /**
   * A change's item taken: its `:running` item is queued (due a lease later, for a worker that dies), then the change's
   * item goes, so that a change from now on queues a rebuild of its own.
   */
  async start(holder: string, item: TakenItem<FeedRebuild>): Promise<void> {
    if (isRunningKey(item._id)) return;
    await this.work.enqueue(
      runningKey(item.payload.shopId),
      item.payload,
      new Date(this.now().getTime() + FEED_REBUILD_LEASE_MS),
    );
    await this.work.finish(holder, item._id);
  }

  /** The rebuild is done (or has nothing to do): its `:running` item goes, whoever queued it. */
  async done(holder: string, shopId: number): Promise<void> {
    await this.work.finish(holder, runningKey(shopId));
  }

  /** The rebuild failed: tried again at `at` (the attempt counted), or given up without `at` (the caller logs it). */
  async failed(holder: string, shopId: number, attempts: number, at: Date | undefined, error: string): Promise<void> {
    const key = runningKey(shopId);
    if (!at) return this.work.giveUp(holder, key);
    // Its claim, if any, goes with the rest of the run's (release).
    await this.work.postpone(key, at, { attempts: attempts + 1, lastError: error });
  }

  /** Failed attempts of the shop's `:running` item so far (0 when none is queued). */
  async attempts(shopId: number): Promise<number> {
    return (await this.work.get(runningKey(shopId)))?.attempts ?? 0;
  }

  /** Lets go of what `holder` still holds: those items stay due. */
  release(holder: string): Promise<void> {
    return this.work.release(holder);
  }

  /** Removes claims that ran out before `before` (no TTL indexes on FerretDB). */
  prune(before: Date): Promise<number> {
    return this.work.prune(before);
  }

  /** The items queued, earliest due first (tests, the operator's view). */
  peek(limit: number) {
    return this.work.peek(limit);
  }
}
