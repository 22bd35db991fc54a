// Review events on their way to the webhooks: a work queue (server/queue/work-queue.ts: `webhook_events` and
// `webhook_events_claims`), one item per review version that caused an event, keyed `<review id>:<version>`, written
// right after the review (the review store calls `follow` for every write) and finished once the event's deliveries
// exist (delivery.ts). It holds only what is not dispatched yet, so the worker reads that instead of searching the
// reviews; and each item carries the review as that version was written, so dispatching reads no review either (on
// FerretDB every filter but an exact `_id` scans the collection).
//
// The full run takes its batch under a claim, so two workers split the queue instead of both dispatching all of it.
// Dispatching is idempotent anyway (a delivery's `_id` is the event's and the subscription's): the fast paths, which
// dispatch events this process just wrote or was told of, finish them without a claim, and a run that died after
// creating the deliveries leaves items that the next run dispatches again, creating nothing new.
//
// Versions before the work queue kept the events in `events` (server/migrations/webhook-events.ts moves them);
// versions before that cleared the review's `pendingEvent` once the event was recorded, and reviews an older version
// crashed on are swept once (migrate).
import { isDuplicateKey, type Db } from '../db/index.js';
import { WorkQueue } from '../queue/work-queue.js';
import type { Review, ReviewEvent, WriteFollower } from '../reviews/model.js';

export const WEBHOOK_EVENT_QUEUE = 'webhook_events';
const MIGRATION = 'events.queue';
/**
 * How long a full run holds its batch: dispatching 500 events takes well under that. A run that dies lets go when it
 * runs out, and the next run dispatches the batch again (creating nothing twice).
 */
const LEASE_MS = 60_000;

/** What an item holds: the event without its key and queue time. */
export type QueuedEvent = Omit<ReviewEvent, '_id' | 'created'>;

const eventId = (review: Pick<Review, 'id' | 'version'>): string => `${review.id}:${review.version}`;

export class EventQueue implements WriteFollower {
  private readonly work: WorkQueue<QueuedEvent>;

  constructor(
    private readonly db: Db,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.work = new WorkQueue<QueuedEvent>(db, WEBHOOK_EVENT_QUEUE, now);
  }

  ensureIndexes(): Promise<void> {
    return this.work.ensureIndexes();
  }

  /** The review store's follower: queues the event this version caused, if any (a repeat is harmless). */
  async follow(_before: Review | undefined, review: Review): Promise<void> {
    if (!review.pendingEvent) return;
    await this.work.enqueue(eventId(review), queuedEvent(review));
  }

  /** A look at the oldest queued events, held or not (tests, the crash checks): dispatching takes them (`take`). */
  async pending(limit: number): Promise<ReviewEvent[]> {
    return ordered((await this.work.peek(limit)).map(eventOf));
  }

  /**
   * The full run: up to `limit` events due now, claimed for `holder` (events another run holds are left to it), oldest
   * first and, within one moment, by review and version. The run finishes them (`dispatched`) or lets go (`release`).
   */
  async take(holder: string, limit: number): Promise<ReviewEvent[]> {
    return ordered((await this.work.take(holder, limit, LEASE_MS)).map(eventOf));
  }

  /** The events among these ids that are still queued (others were dispatched already): a read by `_id` each. */
  async byIds(ids: readonly string[]): Promise<ReviewEvent[]> {
    return ordered((await this.work.getMany(ids)).map(eventOf));
  }

  /**
   * Events whose deliveries exist: gone from the queue, then `holder`'s claims on them. Without a holder (the fast
   * paths, which claim nothing) a claim a full run holds on one of them is released by that run when it finishes.
   */
  async dispatched(ids: readonly string[], holder?: string): Promise<void> {
    if (holder) await this.work.finishAll(holder, ids);
    else await this.work.cancel(ids);
  }

  /** Lets go of what `holder` still holds (a run that failed part-way): those events stay due. */
  release(holder: string): Promise<void> {
    return this.work.release(holder);
  }

  /**
   * Erasure: queued events of these (now anonymised) reviews carry the review as it was; they get the review as it
   * is now, keeping their event id. Returns how many were rewritten. A scan of the queue, which is small.
   */
  async rewrite(reviews: readonly Review[]): Promise<number> {
    if (reviews.length === 0) return 0;
    const byId = new Map(reviews.map((r) => [r.id, r]));
    return this.work.rewrite({ reviewId: { $in: [...byId.keys()] } }, (event) => ({
      ...event,
      review: byId.get(event.reviewId) ?? event.review,
    }));
  }

  /** How many events wait (tests, health). */
  size(): Promise<number> {
    return this.work.size();
  }

  /** Claims of runs that died before `before` (no TTL indexes on FerretDB). */
  prune(before: Date): Promise<number> {
    return this.work.prune(before);
  }

  /**
   * Queues an event an older version recorded (server/migrations/webhook-events.ts), due when it was recorded; false
   * when it is queued already.
   */
  adopt(event: ReviewEvent): Promise<boolean> {
    const { _id, created, ...queued } = event;
    return this.work.enqueue(_id, queued, created);
  }

  /**
   * Start-up migration, once (a marker in `migrations`; a repeat queues nothing twice): reviews whose `pendingEvent`
   * an older version did not clear (a crash before the event was recorded) get their event.
   */
  async migrate(reviews: { needingFollowUp(): AsyncGenerator<Review[]> }): Promise<number> {
    const migrations = this.db.collection<{ _id: string; done: Date }>('migrations');
    if (await migrations.findOne({ _id: MIGRATION })) return 0;
    let queued = 0;
    for await (const batch of reviews.needingFollowUp()) {
      const due = batch.filter((r) => r.pendingEvent);
      await Promise.all(due.map((r) => this.work.enqueue(eventId(r), queuedEvent(r))));
      queued += due.length;
    }
    try {
      await migrations.insertOne({ _id: MIGRATION, done: this.now() });
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
    }
    return queued;
  }
}

function queuedEvent(review: Review): QueuedEvent {
  return {
    shopId: review.shopId,
    reviewId: review.id,
    version: review.version,
    topic: review.pendingEvent!,
    review,
  };
}

/** An item as the dispatchers read it: `created` is its due time, which is when it was recorded (never moved). */
function eventOf(item: { _id: string; due: Date; payload: QueuedEvent }): ReviewEvent {
  return { _id: item._id, ...item.payload, created: item.due };
}

/**
 * Oldest first; events recorded in the same millisecond by review and version, so that a review's versions are
 * dispatched (and their deliveries made) in the order they were written.
 */
function ordered(events: ReviewEvent[]): ReviewEvent[] {
  return events.sort(
    (a, b) => a.created.getTime() - b.created.getTime() || a.reviewId - b.reviewId || a.version - b.version,
  );
}
