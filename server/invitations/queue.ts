// The sending state of invitations, kept beside them rather than in them:
//
// - `invitation_mail` and `invitation_mail_claims`: the invitation e-mails still to be sent, one work queue
//   (server/queue/work-queue.ts) keyed by the invitation's `_id` in hex, written before the invitation itself and
//   finished (in batches) once the invitation has an outcome;
// - `invitation_outcomes`: insert-only, one per finished invitation: sent (when, with which Message-ID), failed or
//   suppressed. The dashboard and the operator API read the sending state from here.
//
// Why not fields on the invitation: FerretDB 1.24 scans the whole collection for every update or delete (about
// 30 ms per update at 5,000 invitations, measured), while inserts and finds by `_id` stay cheap. So the sender
// never updates an invitation: per e-mail it inserts one outcome, and everything else happens once per batch on
// small collections. On MongoDB all of this is cheap anyway. Before the work queue the entries were in
// `invitation_queue` (claims in `invitation_claims`): server/migrations/invitation-queues.ts moves them.
import { ObjectId } from 'mongodb';
import type { Db, Collection } from '../db/index.js';
import { GroupInsert } from '../db/group-insert.js';
import { GroupCommit } from '../db/group-commit.js';
import { mentionsAddress } from '../email.js';
import { type WorkItem, WorkQueue } from '../queue/work-queue.js';
import type { InvitationOutcome, QueuedInvitation } from './model.js';

// The model is model.ts's (types only); re-exported for the modules that import it from here.
export type { InvitationOutcome } from './model.js';

export const INVITATION_MAIL_QUEUE = 'invitation_mail';

/** The invitation e-mail's work item: the key is the invitation, nothing else is needed to send it. */
type InvitationMail = Record<string, never>;

/** A work item as the invitations' code knows it (keyed by the invitation's ObjectId). */
export const asQueued = ({ _id, due, attempts, lastError }: WorkItem<unknown>): QueuedInvitation => ({
  _id: ObjectId.createFromHexString(_id),
  due,
  attempts,
  lastError,
});

const hex = (ids: readonly ObjectId[]): string[] => ids.map((id) => id.toHexString());

export class InvitationQueue {
  private readonly work: WorkQueue<InvitationMail>;
  private readonly outcomes: Collection<InvitationOutcome>;
  private readonly outcomeWrites: GroupInsert<InvitationOutcome>;

  constructor(db: Db, now: () => Date = () => new Date()) {
    this.work = new WorkQueue<InvitationMail>(db, INVITATION_MAIL_QUEUE, now);
    this.outcomes = db.collection<InvitationOutcome>('invitation_outcomes');
    this.outcomeWrites = new GroupInsert(this.outcomes, 1000);
  }

  ensureIndexes(): Promise<void> {
    return this.work.ensureIndexes();
  }

  /** Queues an invitation (grouped with concurrent ones: Add invitation is called in bursts). */
  async enqueue(id: ObjectId, due: Date): Promise<void> {
    await this.work.enqueue(id.toHexString(), {}, due);
  }

  /** Takes entries off the queue unsent (their invitations are gone). */
  dequeue(ids: readonly ObjectId[]): Promise<void> {
    return this.work.cancel(hex(ids));
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
   * Claims up to `limit` due entries for `holder`, skipping those in `skip` (ids in hex) and those other runs hold.
   * An entry taken over from a run that died or stalled is only finished when that run got as far as recording its
   * outcome (its e-mail went out; the run died before its batch's clean-up), however late this run comes: claims
   * are pruned only a day after they ran out.
   */
  async claimDue(
    holder: string,
    limit: number,
    leaseMs: number,
    skip: ReadonlySet<string>,
  ): Promise<QueuedInvitation[]> {
    for (let round = 0; round < 3; round++) {
      const taken = await this.work.take(holder, limit, leaseMs, skip);
      if (taken.length === 0) return [];
      const orphans = taken.filter((item) => item.takenOver).map(asQueued);
      const done = orphans.length ? await this.outcomesOf(orphans.map((e) => e._id)) : new Map();
      if (done.size) await this.work.finishAll(holder, [...done.keys()]);
      const entries = taken.filter((item) => !done.has(item._id)).map(asQueued);
      if (entries.length) return entries;
    }
    return [];
  }

  /** Extends the holder's claims; returns the ids (hex) it still holds. */
  renew(holder: string, leaseMs: number): Promise<Set<string>> {
    return this.work.renew(holder, leaseMs);
  }

  /** Gives up every claim of the holder (its batch is done, or left for the next run). */
  release(holder: string): Promise<void> {
    return this.work.release(holder);
  }

  /** Finishes a batch's entries (sent, or given up with an outcome, or gone): one delete, then their claims. */
  finishAll(holder: string, ids: readonly ObjectId[]): Promise<void> {
    return this.work.finishAll(holder, hex(ids));
  }

  /** Claims and take-over markers of runs that died before `before` (no TTL indexes on FerretDB). */
  prune(before: Date): Promise<number> {
    return this.work.prune(before);
  }

  /** A failed attempt that will be tried again at `due`. */
  async retryAt(id: ObjectId, due: Date, attempts: number, lastError: string): Promise<void> {
    await this.work.postpone(id.toHexString(), due, { attempts, lastError });
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
  async entryOf(id: ObjectId): Promise<QueuedInvitation | null> {
    const item = await this.work.get(id.toHexString());
    return item ? asQueued(item) : null;
  }

  /**
   * Erasure: what is kept about sending these invitations (queue entry, claim, outcome). With `address`, also every
   * queue entry and outcome whose error text quotes it (SMTP servers do), whichever invitation it belonged to.
   * Returns the queue entries and outcomes removed. A scan on FerretDB: erasures are rare operator actions.
   */
  async forget(ids: ObjectId[], address?: string): Promise<number> {
    const quoting = address ? mentionsAddress(address) : undefined;
    const queued = await this.work.forgetKeys(hex(ids), quoting);
    const byId = { _id: { $in: ids } };
    const finished = await this.outcomes.deleteMany(quoting ? { $or: [byId, { reason: quoting }] } : byId);
    return queued + finished.deletedCount;
  }

  /** The outcomes of these invitations, by id (one look-up by `_id` each: cheap on both databases). */
  async outcomesOf(ids: ObjectId[]): Promise<Map<string, InvitationOutcome>> {
    const found = await Promise.all(ids.map((_id) => this.outcomes.findOne({ _id })));
    return new Map(found.filter((o) => o !== null).map((o) => [o._id.toHexString(), o]));
  }
}
