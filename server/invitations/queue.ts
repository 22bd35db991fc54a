// The sending state of invitations, kept beside them rather than in them:
//
// - `invitation_queue`: one document per invitation still to be sent (`due`, failed `attempts`, `lastError`),
//   written before the invitation itself and removed (in batches) once the invitation is finished;
// - `invitation_claims`: which sending run holds an invitation, until when (inserted: a duplicate `_id` means
//   another run has it, which is atomic on FerretDB too);
// - `invitation_outcomes`: insert-only, one per finished invitation: sent (when, with which Message-ID), failed or
//   suppressed.
//
// Why not fields on the invitation: FerretDB 1.24 scans the whole collection for every update or delete (about
// 30 ms per update at 5,000 invitations, measured), while inserts and finds by `_id` stay cheap. So the sender
// never updates an invitation: per e-mail it inserts one outcome, and everything else happens once per batch on
// small collections. On MongoDB all of this is cheap anyway.
import type { ObjectId } from 'mongodb';
import type { Db, Collection } from '../db/index.js';
import { GroupInsert } from '../db/group-insert.js';
import { mentionsAddress } from './email.js';

export interface QueuedInvitation {
  /** The invitation's `_id`. */
  _id: ObjectId;
  /** When to try next: the invitation's `scheduled`, later a retry time. */
  due: Date;
  /** Failed attempts so far. */
  attempts: number;
  lastError: string | null;
}

export interface InvitationClaim {
  _id: ObjectId;
  claim: string;
  until: Date;
}

export type OutcomeStatus = 'sent' | 'failed' | 'suppressed';

export interface InvitationOutcome {
  _id: ObjectId;
  status: OutcomeStatus;
  at: Date;
  messageId: string | null;
  /** Why it failed or was not sent (`unsubscribed`); null when sent. */
  reason: string | null;
}

export class InvitationQueue {
  readonly queue: Collection<QueuedInvitation>;
  readonly claims: Collection<InvitationClaim>;
  readonly outcomes: Collection<InvitationOutcome>;

  constructor(db: Db) {
    this.queue = db.collection<QueuedInvitation>('invitation_queue');
    this.claims = db.collection<InvitationClaim>('invitation_claims');
    this.outcomes = db.collection<InvitationOutcome>('invitation_outcomes');
    this.queueWrites = new GroupInsert(this.queue);
    this.outcomeWrites = new GroupInsert(this.outcomes, 1000);
  }

  private readonly queueWrites: GroupInsert<QueuedInvitation>;
  private readonly outcomeWrites: GroupInsert<InvitationOutcome>;

  async ensureIndexes(): Promise<void> {
    await this.queue.createIndex({ due: 1 }, { name: 'due' });
    await this.claims.createIndex({ claim: 1 }, { name: 'claim' });
  }

  /** Queues an invitation (grouped with concurrent ones: Add invitation is called in bursts). */
  async enqueue(id: ObjectId, due: Date): Promise<void> {
    await this.queueWrites.insert({ _id: id, due, attempts: 0, lastError: null });
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

  /**
   * Erasure: what is kept about sending these invitations (queue entry, claim, outcome). With `address`, also every
   * queue entry and outcome whose error text quotes it (SMTP servers do), whichever invitation it belonged to.
   * Returns the queue entries and outcomes removed. A scan on FerretDB: erasures are rare operator actions.
   */
  async forget(ids: ObjectId[], address?: string): Promise<number> {
    const byId = { _id: { $in: ids } };
    const quoting = (field: 'lastError' | 'reason') => (address ? [{ [field]: mentionsAddress(address) }] : []);
    const queued = await this.queue.deleteMany({ $or: [byId, ...quoting('lastError')] });
    await this.claims.deleteMany(byId);
    const finished = await this.outcomes.deleteMany({ $or: [byId, ...quoting('reason')] });
    return queued.deletedCount + finished.deletedCount;
  }

  /** The outcomes of these invitations, by id (one look-up by `_id` each: cheap on both databases). */
  async outcomesOf(ids: ObjectId[]): Promise<Map<string, InvitationOutcome>> {
    const found = await Promise.all(ids.map((_id) => this.outcomes.findOne({ _id })));
    return new Map(found.filter((o) => o !== null).map((o) => [o._id.toHexString(), o]));
  }
}
