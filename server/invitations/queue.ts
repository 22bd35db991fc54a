// The sending state of invitations, kept beside them rather than in them:
//
// - `invitation_queue`: one document per invitation still to be sent (`due`, failed `attempts`, `lastError`),
//   written before the invitation itself and removed (in batches) once the invitation is finished;
// - `invitation_claims`: which sending run holds an invitation, until when (the claim/lease primitive of
//   server/db/claims.ts: a duplicate `_id` means another run has it, which is atomic on FerretDB too);
// - `invitation_outcomes`: insert-only, one per finished invitation: sent (when, with which Message-ID), failed or
//   suppressed.
//
// Why not fields on the invitation: FerretDB 1.24 scans the whole collection for every update or delete (about
// 30 ms per update at 5,000 invitations, measured), while inserts and finds by `_id` stay cheap. So the sender
// never updates an invitation: per e-mail it inserts one outcome, and everything else happens once per batch on
// small collections. On MongoDB all of this is cheap anyway.
import type { ObjectId } from 'mongodb';
import type { Db, Collection } from '../db/index.js';
import { Claims } from '../db/claims.js';
import { GroupInsert } from '../db/group-insert.js';
import { GroupCommit } from '../db/group-commit.js';
import { mentionsAddress } from '../email.js';

export interface QueuedInvitation {
  /** The invitation's `_id`. */
  _id: ObjectId;
  /** When to try next: the invitation's `scheduled`, later a retry time. */
  due: Date;
  /** Failed attempts so far. */
  attempts: number;
  lastError: string | null;
}

type OutcomeStatus = 'sent' | 'failed' | 'suppressed';

export interface InvitationOutcome {
  _id: ObjectId;
  status: OutcomeStatus;
  at: Date;
  messageId: string | null;
  /** Why it failed or was not sent (`unsubscribed`); null when sent. */
  reason: string | null;
}

export class InvitationQueue {
  private readonly queue: Collection<QueuedInvitation>;
  private readonly claims: Claims<ObjectId>;
  private readonly outcomes: Collection<InvitationOutcome>;
  private readonly queueWrites: GroupInsert<QueuedInvitation>;
  private readonly outcomeWrites: GroupInsert<InvitationOutcome>;

  constructor(db: Db, now: () => Date = () => new Date()) {
    this.queue = db.collection<QueuedInvitation>('invitation_queue');
    this.claims = new Claims<ObjectId>(db, 'invitation_claims', now);
    this.outcomes = db.collection<InvitationOutcome>('invitation_outcomes');
    this.queueWrites = new GroupInsert(this.queue);
    this.outcomeWrites = new GroupInsert(this.outcomes, 1000);
  }

  async ensureIndexes(): Promise<void> {
    await this.queue.createIndex({ due: 1 }, { name: 'due' });
    await this.claims.ensureIndexes();
  }

  /** Queues an invitation (grouped with concurrent ones: Add invitation is called in bursts). */
  async enqueue(id: ObjectId, due: Date): Promise<void> {
    await this.queueWrites.insert({ _id: id, due, attempts: 0, lastError: null });
  }

  /** Takes entries off the queue unsent (their invitations are gone). */
  async dequeue(ids: readonly ObjectId[]): Promise<void> {
    if (ids.length) await this.queue.deleteMany({ _id: { $in: [...ids] } });
  }

  /**
   * Takes back the entry of an invitation that turned out a repeat. Repeats come in bursts (a plugin retrying a
   * day's orders, a CSV file uploaded again), and FerretDB reads the whole queue for every delete: the take-backs
   * that arrive while one runs go together in the next (group commit), one read for a burst instead of one each.
   */
  takeBack(id: ObjectId): Promise<void> {
    return this.takeBacks.add(id);
  }

  private readonly takeBacks = new GroupCommit<ObjectId>(async (ids) => {
    await this.dequeue(ids);
  });

  /**
   * Claims up to `limit` due entries for `holder`, skipping those in `skip` (ids in hex). Claims are few (the batches
   * in progress), so all are read. A live claim belongs to another run, or to this run's batch in progress. One that
   * ran out was left by a run that died or stalled: its entries are free again, unless that run got as far as
   * recording an outcome (then they only leave the queue). A few rounds at most: another run may take what we saw.
   */
  async claimDue(
    holder: string,
    now: Date,
    limit: number,
    leaseMs: number,
    skip: ReadonlySet<string>,
  ): Promise<QueuedInvitation[]> {
    for (let round = 0; round < 3; round++) {
      const { live, expired } = await this.claims.all();
      const held = new Set([...skip, ...live.map((c) => c.key.toHexString())]);
      if (expired.length) {
        const done = [...(await this.outcomesOf(expired.map((c) => c.key))).values()].map((o) => o._id);
        await this.dequeue(done);
        await this.claims.forget(done);
        for (const id of done) held.add(id.toHexString());
      }
      // Claims and take-over markers left by runs that died a lease ago (no TTL indexes on FerretDB; a tiny
      // collection). Only after the look at the expired claims above: the e-mails a dead run sent are known by
      // their claims, however late the next run comes (a restart under load takes longer than a lease).
      if (round === 0) await this.claims.prune(new Date(now.getTime() - leaseMs));
      // Read past what is held; one reply for all: on FerretDB each further batch of a cursor costs about as much
      // as the first.
      const max = limit + held.size;
      const due = await this.queue
        .find({ due: { $lte: now } }, { batchSize: max })
        .limit(max)
        .toArray();
      const free = due.filter((e) => !held.has(e._id.toHexString())).slice(0, limit);
      if (free.length === 0) return [];
      const won = new Set(
        (
          await this.claims.claim(
            free.map((e) => e._id),
            holder,
            leaseMs,
          )
        ).map((id) => id.toHexString()),
      );
      const entries = free.filter((e) => won.has(e._id.toHexString()));
      if (entries.length) return entries;
    }
    return [];
  }

  /** Extends the holder's claims; returns the ids (hex) it still holds. */
  renew(holder: string, leaseMs: number): Promise<Set<string>> {
    return this.claims.renew(holder, leaseMs);
  }

  /** Gives up every claim of the holder (its batch is done, or left for the next run). */
  release(holder: string): Promise<void> {
    return this.claims.release(holder);
  }

  /** A failed attempt that will be tried again at `due`. */
  async retryAt(id: ObjectId, due: Date, attempts: number, lastError: string): Promise<void> {
    await this.queue.updateOne({ _id: id }, { $set: { due, attempts, lastError } });
  }

  /**
   * Records how an invitation ended; resolves once it is written. Records that arrive while a write is in flight
   * go together in the next one (group commit): under load that is sooner than one write each, queued up behind
   * each other, so the moment between an SMTP server's acceptance and our record stays as short as it can.
   * A second record of the same invitation (a resend after a crash) keeps the first.
   */
  async finish(outcome: InvitationOutcome): Promise<void> {
    await this.outcomeWrites.insert(outcome);
  }

  /** When the invitation was sent, or null while it was not (one look-up by `_id`). */
  async sentAt(id: ObjectId): Promise<Date | null> {
    const outcome = await this.outcomes.findOne({ _id: id });
    return outcome?.status === 'sent' ? outcome.at : null;
  }

  /** The outcome of one invitation, or null while it has none (one look-up by `_id`). */
  outcomeOf(id: ObjectId): Promise<InvitationOutcome | null> {
    return this.outcomes.findOne({ _id: id });
  }

  /** The queue entry of an invitation still to be sent, or null. */
  entryOf(id: ObjectId): Promise<QueuedInvitation | null> {
    return this.queue.findOne({ _id: id });
  }

  /**
   * Erasure: what is kept about sending these invitations (queue entry, claim, outcome). With `address`, also every
   * queue entry and outcome whose error text quotes it (SMTP servers do), whichever invitation it belonged to.
   * Returns the queue entries and outcomes removed. A scan on FerretDB: erasures are rare operator actions.
   */
  async forget(ids: ObjectId[], address?: string): Promise<number> {
    const byId = { _id: { $in: ids } };
    const quoting = (field: 'lastError' | 'reason') => (address ? [{ [field]: mentionsAddress(address) }] : []);
    const queued = await this.queue.deleteMany({ $or: [byId, ...quoting('lastError')] });
    await this.claims.forget(ids);
    const finished = await this.outcomes.deleteMany({ $or: [byId, ...quoting('reason')] });
    return queued.deletedCount + finished.deletedCount;
  }

  /** The outcomes of these invitations, by id (one look-up by `_id` each: cheap on both databases). */
  async outcomesOf(ids: ObjectId[]): Promise<Map<string, InvitationOutcome>> {
    const found = await Promise.all(ids.map((_id) => this.outcomes.findOne({ _id })));
    return new Map(found.filter((o) => o !== null).map((o) => [o._id.toHexString(), o]));
  }
}
