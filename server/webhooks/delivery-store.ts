// Webhook deliveries (one per event and subscription) and each subscription's delivery log (one entry per attempt).
//
// A delivery's _id is `<event id>:<subscription id>`: turning an event into deliveries twice (after a crash between
// the inserts and marking the event dispatched) inserts nothing new, so each event's deliveries exist exactly once.
// Sending is at least once: a sender claims a due delivery by moving its `nextAttempt` past the request's timeout;
// if the process dies mid-request, the delivery falls due again when that lease runs out and is sent again, with
// the same X-Event-Id so the receiver can drop the duplicate.
//
// On FerretDB only a filter that is exactly `{_id}` is answered without scanning the collection, so every write
// here on the sending path filters by `_id` alone, and the claim is an insert of a unique key instead of a
// conditional update (which would scan all deliveries, once per attempt). The deliveries keep 30 days of history, so
// what is still to be sent is also kept apart, in `webhook_due` (one small document per pending delivery, with its
// `nextAttempt`): the searches for due deliveries read that, not the history. Its entries are written before their
// delivery and checked against it when read, so a crash in between leaves nothing unsent.
import { MongoBulkWriteError, type Filter } from 'mongodb';
import type { Db, Collection } from '../db/index.js';
import { randomUUID } from 'node:crypto';
import { isDuplicateKey, onlyDuplicateKeys } from '../db/index.js';
import { Claims } from '../db/claims.js';
import type { Review, ReviewTopic } from '../reviews/model.js';
import { mentionsAddress } from '../email.js';
import { payloadFor } from './payload.js';
import type { DeliveryLogEntry } from './model.js';

type DeliveryStatus = 'pending' | 'delivered' | 'failed' | 'cancelled';

export interface WebhookDelivery {
  /** `<event id>:<subscription id>`. */
  _id: string;
  eventId: string;
  subscriptionId: number;
  shopId: number;
  topic: ReviewTopic;
  /** The exact JSON body: every attempt sends (and signs) the same bytes. */
  body: string;
  status: DeliveryStatus;
  /** Attempts so far, redeliveries included: numbers the log entries. */
  attempts: number;
  /** Failed attempts in a row in the current round: picks the next retry delay. */
  failures: number;
  /** False for a redelivery asked for by the shop: one attempt, no retries, no effect on the switch-off count. */
  retries: boolean;
  /** When the delivery is due; while one is being sent, the end of the sender's lease. */
  nextAttempt: Date;
  created: Date;
  completed: Date | null;
}

export type { DeliveryLogEntry };

export interface AttemptRecord {
  delivery: WebhookDelivery;
  attempt: { time: Date; status: number | null; error: string | null; durationMs: number };
  outcome: AttemptOutcome;
}

export type AttemptOutcome = { kind: 'delivered' } | { kind: 'retry'; at: Date } | { kind: 'failed' };

/** A pending delivery, by the delivery's `_id`: when it is due (while being sent, the end of the sender's lease). */
interface Due {
  _id: string;
  shopId: number;
  subscriptionId: number;
  nextAttempt: Date;
}

const DUE_MIGRATION = 'webhook_due.backfill';
/** How long after its time a due entry may wait for the write that completes it (see `due`). */
const WRITE_GAP_MS = 60_000;

export class WebhookDeliveryStore {
  readonly deliveries: Collection<WebhookDelivery>;
  readonly log: Collection<DeliveryLogEntry>;
  private readonly pending: Collection<Due>;

  constructor(private readonly db: Db) {
    this.deliveries = db.collection<WebhookDelivery>('webhook_deliveries');
    this.log = db.collection<DeliveryLogEntry>('webhook_attempts');
    this.pending = db.collection<Due>('webhook_due');
  }

  async ensureIndexes(): Promise<void> {
    await this.deliveries.createIndex({ status: 1, nextAttempt: 1 }, { name: 'status_next' });
    await this.deliveries.createIndex({ subscriptionId: 1, eventId: 1 }, { name: 'subscription_event' });
    await this.deliveries.createIndex({ completed: 1 }, { name: 'completed' });
    await this.log.createIndex({ subscriptionId: 1, time: -1 }, { name: 'subscription_time' });
    await this.log.createIndex({ time: 1 }, { name: 'time' });
    await this.claimsAt(() => new Date()).ensureIndexes();
    await this.pending.createIndex({ nextAttempt: 1 }, { name: 'next_attempt' });
  }

  /**
   * Start-up migration, once: pending deliveries of a version before `webhook_due` get their entry. A scan of the
   * deliveries; a repeat (two processes at once) inserts nothing twice.
   */
  async migrate(now: Date): Promise<number> {
    const migrations = this.db.collection<{ _id: string; done: Date }>('migrations');
    if (await migrations.findOne({ _id: DUE_MIGRATION })) return 0;
    const pending = await this.deliveries.find({ status: 'pending' }, { projection: { body: 0 } }).toArray();
    await this.insertDue(pending);
    try {
      await migrations.insertOne({ _id: DUE_MIGRATION, done: now });
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
    }
    return pending.length;
  }

  /** Inserts the due entries of these deliveries; returns the `_id`s whose entry was there already. */
  private async insertDue(
    deliveries: Pick<WebhookDelivery, '_id' | 'shopId' | 'subscriptionId' | 'nextAttempt'>[],
  ): Promise<Set<string>> {
    if (deliveries.length === 0) return new Set();
    const entries = deliveries.map((d) => ({
      _id: d._id,
      shopId: d.shopId,
      subscriptionId: d.subscriptionId,
      nextAttempt: d.nextAttempt,
    }));
    try {
      await this.pending.insertMany(entries, { ordered: false });
      return new Set();
    } catch (err) {
      return new Set(duplicateIndexes(err).map((i) => entries[i]!._id));
    }
  }

  /**
   * Inserts deliveries and returns the ones that are new; those that already exist (same event and subscription)
   * are left as they are.
   */
  async createMany(docs: WebhookDelivery[]): Promise<WebhookDelivery[]> {
    if (docs.length === 0) return [];
    // Due first: a delivery never exists without its entry (an entry without its delivery is dropped when read).
    const entered = await this.insertDue(docs);
    let created = docs;
    try {
      await this.deliveries.insertMany(docs, { ordered: false });
    } catch (err) {
      const existing = new Set(duplicateIndexes(err));
      created = docs.filter((_, i) => !existing.has(i));
    }
    // An entry that was there already while the delivery was not was written by another dispatcher of the same event
    // at the same moment (a fast path and a full run), or by one that crashed between the two inserts. Its time is
    // the other's: a fast path's lease (15 s ahead) on the full run's delivery, due now and sent by nobody until that
    // lease ran out. The delivery written is this one, so its entry gets this one's time.
    const mismatched = created.filter((d) => entered.has(d._id));
    if (mismatched.length) {
      await this.pending.bulkWrite(
        mismatched.map((d) => ({
          updateOne: { filter: { _id: d._id }, update: { $set: { nextAttempt: d.nextAttempt } } },
        })),
        { ordered: false },
      );
    }
    return created;
  }

  /**
   * Pending deliveries due at `now`, oldest first, except those of the shops in `exceptShops`: found in
   * `webhook_due`, each then read by `_id`. An entry whose delivery is gone or finished is dropped once it is a minute
   * old (before that, the write that makes the delivery pending may still be on its way).
   */
  async due(now: Date, limit: number, exceptShops: readonly number[] = []): Promise<WebhookDelivery[]> {
    const filter: Filter<Due> = { nextAttempt: { $lte: now } };
    if (exceptShops.length) filter.shopId = { $nin: [...exceptShops] };
    const entries = await this.pending.find(filter).sort({ nextAttempt: 1 }).limit(limit).toArray();
    const found = await Promise.all(entries.map((e) => this.deliveries.findOne({ _id: e._id })));
    // The entry is written before its delivery (createMany) and before a finished delivery is made pending again
    // (redeliver): a read between the two writes finds it with no pending delivery. Such a young entry is skipped,
    // not dropped (dropping it lost the delivery); an old one was left by a crash and goes.
    const stale = entries
      .filter((e, i) => found[i]?.status !== 'pending' && now.getTime() - e.nextAttempt.getTime() >= WRITE_GAP_MS)
      .map((e) => e._id);
    if (stale.length) await this.dropDue(stale);
    return found.filter((d): d is WebhookDelivery => d?.status === 'pending');
  }

  /** When the next pending delivery falls due after `after`, if any (those due already are the senders' work). */
  async nextDue(after: Date): Promise<Date | undefined> {
    const [next] = await this.pending
      .find({ nextAttempt: { $gt: after } })
      .sort({ nextAttempt: 1 })
      .limit(1)
      .toArray();
    return next?.nextAttempt;
  }

  private async dropDue(ids: readonly string[]): Promise<void> {
    await this.pending.bulkWrite(
      ids.map((_id) => ({ deleteOne: { filter: { _id } } })),
      { ordered: false },
    );
  }

  /**
   * Takes a due delivery for sending until `leaseUntil`; false when another sender took it first. Senders that read
   * the same state race for the same key (server/db/claims.ts); after a lease ran out, `nextAttempt` (and so the key)
   * is new, and a claim whose sender died before moving `nextAttempt` is taken over once its lease ended.
   */
  async claim(delivery: WebhookDelivery, leaseUntil: Date, now: Date): Promise<boolean> {
    const key = `${delivery._id}#${delivery.attempts}#${delivery.nextAttempt.getTime()}`;
    if (!(await this.claimsAt(() => now).claimOne(key, randomUUID(), leaseUntil.getTime() - now.getTime())))
      return false;
    await this.deliveries.updateOne({ _id: delivery._id }, { $set: { nextAttempt: leaseUntil } });
    await this.pending.updateOne({ _id: delivery._id }, { $set: { nextAttempt: leaseUntil } });
    return true;
  }

  /** The claims on deliveries, on the caller's clock (a claim's key is spent once its attempt moved the delivery on). */
  private claimsAt(now: () => Date): Claims {
    return new Claims(this.db, 'webhook_claims', now);
  }

  /**
   * Records attempts: their outcomes on the deliveries (and their due entries), then the log: three writes. The log
   * goes last because a shop redelivers from what it shows: an entry visible before its outcome was stored let a
   * redelivery asked for in between be overwritten by that outcome (made pending, then marked delivered and its due
   * entry deleted: never sent). A crash between the writes loses a log line, never a delivery.
   */
  async recordAttempts(records: AttemptRecord[]): Promise<void> {
    if (records.length === 0) return;
    await this.deliveries.bulkWrite(
      records.map(({ delivery, attempt, outcome }) => {
        const set: Partial<WebhookDelivery> = { attempts: delivery.attempts + 1 };
        if (outcome.kind === 'retry') Object.assign(set, { failures: delivery.failures + 1, nextAttempt: outcome.at });
        else Object.assign(set, { status: outcome.kind, completed: attempt.time });
        if (outcome.kind === 'failed') set.failures = delivery.failures + 1;
        return { updateOne: { filter: { _id: delivery._id }, update: { $set: set } } };
      }),
      { ordered: false },
    );
    await this.pending.bulkWrite(
      records.map(({ delivery, outcome }) =>
        outcome.kind === 'retry'
          ? { updateOne: { filter: { _id: delivery._id }, update: { $set: { nextAttempt: outcome.at } } } }
          : { deleteOne: { filter: { _id: delivery._id } } },
      ),
      { ordered: false },
    );
    await this.log.insertMany(
      records.map(({ delivery, attempt }) => ({
        subscriptionId: delivery.subscriptionId,
        shopId: delivery.shopId,
        deliveryId: delivery._id,
        event_id: delivery.eventId,
        topic: delivery.topic,
        attempt: delivery.attempts + 1,
        time: attempt.time,
        status: attempt.status,
        error: attempt.error,
        duration_ms: attempt.durationMs,
        redelivery: !delivery.retries,
      })),
    );
  }

  /** A delivery whose subscription no longer wants it (switched off). */
  async cancel(delivery: WebhookDelivery, now: Date): Promise<void> {
    await this.deliveries.updateOne({ _id: delivery._id }, { $set: { status: 'cancelled', completed: now } });
    await this.dropDue([delivery._id]);
  }

  async find(subscriptionId: number, eventId: string): Promise<WebhookDelivery | null> {
    return this.deliveries.findOne({ _id: `${eventId}:${subscriptionId}` });
  }

  /**
   * Sends a delivery again now. A pending one just moves up (keeping its retries); a finished one gets a single
   * extra attempt. A pending one whose attempt is in flight at that moment is not sent twice: that attempt, which
   * the log shows once it is done, is the one asked for.
   */
  async redeliver(delivery: WebhookDelivery, now: Date): Promise<void> {
    const set: Partial<WebhookDelivery> =
      delivery.status === 'pending'
        ? { nextAttempt: now }
        : { status: 'pending', nextAttempt: now, failures: 0, retries: false, completed: null };
    const due = { shopId: delivery.shopId, subscriptionId: delivery.subscriptionId, nextAttempt: now };
    try {
      await this.pending.updateOne({ _id: delivery._id }, { $set: due }, { upsert: true });
    } catch (err) {
      // Two redeliveries at once (an upsert is not atomic on FerretDB): the other made the entry.
      if (!isDuplicateKey(err)) throw err;
      await this.pending.updateOne({ _id: delivery._id }, { $set: due });
    }
    await this.deliveries.updateOne({ _id: delivery._id }, { $set: set });
  }

  /** One page of a subscription's log, newest first, and how many entries it has in all. */
  async logPage(
    subscriptionId: number,
    offset: number,
    limit: number,
  ): Promise<{ items: DeliveryLogEntry[]; total: number }> {
    const [items, total] = await Promise.all([
      this.log
        .find({ subscriptionId }, { projection: { _id: 0 } })
        .sort({ time: -1, attempt: -1 })
        .skip(offset)
        .limit(limit)
        .toArray(),
      this.log.countDocuments({ subscriptionId }),
    ]);
    return { items, total };
  }

  async removeSubscription(subscriptionId: number): Promise<void> {
    await this.pending.deleteMany({ subscriptionId });
    await this.deliveries.deleteMany({ subscriptionId });
    await this.log.deleteMany({ subscriptionId });
  }

  /** The body a delivery has now (undefined once it is gone): what a sender holding an older copy must send. */
  async currentBody(id: string): Promise<string | undefined> {
    return (await this.deliveries.findOne({ _id: id }, { projection: { body: 1 } }))?.body;
  }

  /**
   * Erasure: the pending deliveries of these (now anonymised) reviews get the body their event would have now, so
   * retries no longer carry the name and address. They keep their event id and retry state: the receiver still
   * gets the event, as the review now reads. Returns how many were rewritten. A scan on FerretDB; erasures are rare.
   */
  async rewritePending(reviews: readonly Review[], helpful?: ReadonlyMap<number, number>): Promise<number> {
    if (reviews.length === 0) return 0;
    const byId = new Map(reviews.map((r) => [r.id, r]));
    const pending = await this.deliveries
      .find(
        { status: 'pending', eventId: eventOfReviews([...byId.keys()]) },
        { projection: { _id: 1, eventId: 1, topic: 1 } },
      )
      .toArray();
    const rewrites = pending.flatMap((d) => {
      const review = byId.get(Number(d.eventId.split(':')[0]));
      return review
        ? [
            {
              updateOne: {
                filter: { _id: d._id },
                // No photo stays with an erased review, so no address is needed for them.
                update: { $set: { body: payloadFor(d.topic, review, '', helpful && (helpful.get(review.id) ?? 0)) } },
              },
            },
          ]
        : [];
    });
    if (rewrites.length) await this.deliveries.bulkWrite(rewrites, { ordered: false });
    return rewrites.length;
  }

  /**
   * Erasure: the reviews whose deliveries (pending or finished) quote the address in their body, in one shop or all.
   * A review deleted since its event was recorded has lost its address; the bodies made before have not.
   */
  async reviewsQuoting(address: string, shopId?: number): Promise<number[]> {
    const filter = { ...(shopId === undefined ? {} : { shopId }), body: mentionsAddress(address) };
    const found = await this.deliveries.find(filter, { projection: { eventId: 1 } }).toArray();
    return [...new Set(found.map((d) => Number(d.eventId.split(':')[0])))];
  }

  /**
   * Erasure: forgets the finished deliveries of these reviews, whose bodies carry the reviewer's name and address
   * (pending ones are rewritten, see rewritePending). A scan on FerretDB, but erasures are rare.
   */
  async forgetReviews(reviewIds: number[]): Promise<number> {
    if (reviewIds.length === 0) return 0;
    const result = await this.deliveries.deleteMany({ status: { $ne: 'pending' }, eventId: eventOfReviews(reviewIds) });
    return result.deletedCount;
  }

  /** Deletes finished deliveries and log entries older than `before`, and spent claims (no TTL indexes on FerretDB). */
  async prune(before: Date, claimsBefore: Date): Promise<void> {
    await this.deliveries.deleteMany({ status: { $ne: 'pending' }, completed: { $lt: before } });
    await this.log.deleteMany({ time: { $lt: before } });
    await this.claimsAt(() => new Date()).prune(claimsBefore);
  }
}

/** The indexes of the documents an unordered insertMany found already there; any other error is thrown again. */
function duplicateIndexes(err: unknown): number[] {
  if (!onlyDuplicateKeys(err)) throw err;
  // A one-document insert may report its duplicate as a plain error.
  if (!(err instanceof MongoBulkWriteError)) return [0];
  return (Array.isArray(err.writeErrors) ? err.writeErrors : [err.writeErrors]).map((e) => e.index);
}

/** Matches the event ids (`<review id>:<version>`) of these reviews. */
const eventOfReviews = (reviewIds: readonly number[]) =>
  new RegExp(`^(${reviewIds.map((id) => String(Math.trunc(id))).join('|')}):`);
