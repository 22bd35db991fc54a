// Review events on their way to the webhooks: a small queue collection (`events`), one document per review version
// that caused an event, written right after the review (the review store calls `follow` for every write) and
// deleted once the event's deliveries exist (delivery.ts). It holds only what is not dispatched yet, so the worker
// reads all of it instead of searching the reviews; and each entry carries the review as that version was written,
// so dispatching reads no review either (on FerretDB every filter but an exact `_id` scans the collection).
//
// Versions before this queue kept every event here with a `dispatched` flag and cleared the review's
// `pendingEvent` once the event was recorded: the start-up migration (migratePendingEvents) queues what those left
// undispatched, once.
import { isDuplicateKey, onlyDuplicateKeys, type Collection, type Db } from '../db/index.js';
import type { Review, ReviewEvent, WriteFollower } from '../reviews/model.js';

const MIGRATION = 'events.queue';
/** Up to this many events are read one `_id` look-up each; more, with one read of the queue. */
const BY_ID_LOOKUPS = 20;

/** An event queued by an older version: no review snapshot, and a flag instead of being deleted. */
type LegacyEvent = Omit<ReviewEvent, 'review'> & { review?: Review; dispatched?: boolean };

export class EventQueue implements WriteFollower {
  private readonly collection: Collection<LegacyEvent>;

  constructor(
    private readonly db: Db,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.collection = db.collection<LegacyEvent>('events');
  }

  async ensureIndexes(): Promise<void> {
    await this.collection.createIndex({ created: 1 }, { name: 'created' });
  }

  /** The review store's follower: records the event this version caused, if any (a repeat is harmless). */
  async follow(_before: Review | undefined, review: Review): Promise<void> {
    if (!review.pendingEvent) return;
    try {
      await this.collection.insertOne(eventOf(review, this.now()));
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
    }
  }

  /** The oldest events not dispatched yet (the whole queue: it holds nothing else). */
  async pending(limit: number): Promise<ReviewEvent[]> {
    const found = await this.collection.find({}).sort({ created: 1 }).limit(limit).toArray();
    return found.filter((e): e is ReviewEvent => e.review !== undefined);
  }

  /**
   * The events among these ids that are still queued (others were dispatched already). A look-up by `_id` each,
   * which FerretDB answers without a scan; a long list reads the queue once instead (it holds only what is pending).
   */
  async byIds(ids: readonly string[]): Promise<ReviewEvent[]> {
    const found =
      ids.length <= BY_ID_LOOKUPS
        ? await Promise.all(ids.map((_id) => this.collection.findOne({ _id })))
        : await this.collection.find({ _id: { $in: [...ids] } }).toArray();
    return found.filter((e): e is ReviewEvent => e !== null && e.review !== undefined);
  }

  /** Events whose deliveries exist: gone from the queue (one delete by `_id` each: no scan on FerretDB). */
  async dispatched(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.collection.bulkWrite(
      ids.map((_id) => ({ deleteOne: { filter: { _id } } })),
      { ordered: false },
    );
  }

  /**
   * Erasure: queued events of these (now anonymised) reviews carry the review as it was; they get the review as it
   * is now, keeping their event id. Returns how many were rewritten. A scan of the queue, which is small.
   */
  async rewrite(reviews: readonly Review[]): Promise<number> {
    if (reviews.length === 0) return 0;
    const byId = new Map(reviews.map((r) => [r.id, r]));
    const queued = await this.collection
      .find({ reviewId: { $in: [...byId.keys()] } }, { projection: { _id: 1, reviewId: 1 } })
      .toArray();
    for (const e of queued)
      await this.collection.updateOne({ _id: e._id }, { $set: { review: byId.get(e.reviewId)! } });
    return queued.length;
  }

  /**
   * Start-up migration, once (a marker in `migrations`; a repeat queues nothing twice): events an older version
   * recorded but did not dispatch get their review; dispatched ones are dropped; reviews whose `pendingEvent` an
   * older version did not clear (a crash before the event was recorded) get their event.
   */
  async migrate(reviews: {
    byIds(ids: readonly number[]): Promise<Review[]>;
    needingFollowUp(): AsyncGenerator<Review[]>;
  }): Promise<number> {
    const migrations = this.db.collection<{ _id: string; done: Date }>('migrations');
    if (await migrations.findOne({ _id: MIGRATION })) return 0;
    let queued = 0;
    const legacy = await this.collection.find({ review: { $exists: false } }).toArray();
    const undispatched = legacy.filter((e) => e.dispatched === false);
    const current = new Map(
      (await reviews.byIds([...new Set(undispatched.map((e) => e.reviewId))])).map((r) => [r.id, r]),
    );
    for (const e of undispatched) {
      const review = current.get(e.reviewId);
      // The review as it is now: what the full run of the older version would have sent too.
      if (review) {
        await this.collection.updateOne({ _id: e._id }, { $set: { review }, $unset: { dispatched: '' } });
        queued++;
      } else await this.collection.deleteOne({ _id: e._id });
    }
    const done = legacy.filter((e) => e.dispatched !== false).map((e) => e._id);
    if (done.length) await this.collection.deleteMany({ _id: { $in: done } });
    for await (const batch of reviews.needingFollowUp()) {
      const events = batch.filter((r) => r.pendingEvent).map((r) => eventOf(r, this.now()));
      if (events.length === 0) continue;
      try {
        await this.collection.insertMany(events, { ordered: false });
      } catch (err) {
        if (!onlyDuplicateKeys(err)) throw err;
      }
      queued += events.length;
    }
    try {
      await migrations.insertOne({ _id: MIGRATION, done: this.now() });
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
    }
    return queued;
  }
}

function eventOf(review: Review, now: Date): ReviewEvent {
  return {
    _id: `${review.id}:${review.version}`,
    shopId: review.shopId,
    reviewId: review.id,
    version: review.version,
    topic: review.pendingEvent!,
    created: now,
    review,
  };
}
