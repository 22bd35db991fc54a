// The reminder of each invitation, beside it as its first e-mail's sending state is (queue.ts explains why):
// - `invitation_reminders`: one entry per reminder still to be decided, written when the invitation is queued (only
//   invitations queued since reminders exist have one: no burst over the history), due `reminder_days` after the
//   invitation's scheduled time, removed once the reminder was sent or found not to be wanted;
// - `reminder_claims`: which run holds an entry (server/db/claims.ts);
// - `reminder_outcomes`: insert-only, one per invitation: sent (when, Message-ID), skipped (why), failed (why).
// The drain reads only the due entries of this small collection, never the invitations' history.
import type { ObjectId } from 'mongodb';
import type { Collection, Db } from '../db/index.js';
import { Claims } from '../db/claims.js';
import { GroupInsert } from '../db/group-insert.js';
import { GroupCommit } from '../db/group-commit.js';
import { isDuplicateKey } from '../db/index.js';
import { mentionsAddress } from '../email.js';

export interface DueReminder {
  /** The invitation's `_id`. */
  _id: ObjectId;
  due: Date;
  /** Failed sending attempts so far. */
  attempts: number;
  lastError: string | null;
}

type ReminderStatus = 'sent' | 'skipped' | 'failed';

export interface ReminderOutcome {
  _id: ObjectId;
  status: ReminderStatus;
  at: Date;
  messageId: string | null;
  /** Why it was skipped (`link_used`, `reviewed`, `unsubscribed`, …) or failed; null when sent. */
  reason: string | null;
}

export class ReminderQueue {
  private readonly entries: Collection<DueReminder>;
  private readonly claims: Claims<ObjectId>;
  private readonly outcomes: Collection<ReminderOutcome>;
  private readonly writes: GroupInsert<DueReminder>;

  constructor(db: Db, now: () => Date = () => new Date()) {
    this.entries = db.collection<DueReminder>('invitation_reminders');
    this.claims = new Claims<ObjectId>(db, 'reminder_claims', now);
    this.outcomes = db.collection<ReminderOutcome>('reminder_outcomes');
    this.writes = new GroupInsert(this.entries);
  }

  async ensureIndexes(): Promise<void> {
    await this.entries.createIndex({ due: 1 }, { name: 'due' });
    await this.claims.ensureIndexes();
  }

  /** Schedules the reminder of an invitation (grouped with concurrent ones, as Add invitation comes in bursts). */
  async schedule(id: ObjectId, due: Date): Promise<void> {
    await this.writes.insert({ _id: id, due, attempts: 0, lastError: null });
  }

  /** Drops reminders without deciding (their invitation was a repeat, or is gone). */
  async cancel(ids: readonly ObjectId[]): Promise<void> {
    if (ids.length) await this.entries.deleteMany({ _id: { $in: [...ids] } });
  }

  /** Cancels the reminder of an invitation that turned out a repeat, grouped as InvitationQueue.takeBack explains. */
  takeBack(id: ObjectId): Promise<void> {
    return this.takeBacks.add(id);
  }

  private readonly takeBacks = new GroupCommit<ObjectId>(async (ids) => {
    await this.cancel(ids);
  });

  /** Claims up to `limit` due entries for `holder` (entries held by a live claim of another run are skipped). */
  async claimDue(holder: string, now: Date, limit: number, leaseMs: number): Promise<DueReminder[]> {
    await this.claims.prune(new Date(now.getTime() - leaseMs));
    const { live } = await this.claims.all();
    const held = new Set(live.map((c) => c.key.toHexString()));
    const max = limit + held.size;
    const due = await this.entries
      .find({ due: { $lte: now } }, { batchSize: max })
      .limit(max)
      .toArray();
    const free = due.filter((e) => !held.has(e._id.toHexString())).slice(0, limit);
    const won = new Set(
      (
        await this.claims.claim(
          free.map((e) => e._id),
          holder,
          leaseMs,
        )
      ).map((id) => id.toHexString()),
    );
    return free.filter((e) => won.has(e._id.toHexString()));
  }

  release(holder: string): Promise<void> {
    return this.claims.release(holder);
  }

  /** Not yet: decide again at `due` (the first e-mail went out later than planned, or is still being retried). */
  async postpone(id: ObjectId, due: Date, attempts?: number, lastError?: string): Promise<void> {
    await this.entries.updateOne(
      { _id: id },
      { $set: { due, ...(attempts === undefined ? {} : { attempts, lastError }) } },
    );
  }

  /** Records how the reminder ended and removes its entry. A second record (after a crash) keeps the first. */
  async finish(outcome: ReminderOutcome): Promise<void> {
    try {
      await this.outcomes.insertOne(outcome);
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
    }
    await this.entries.deleteOne({ _id: outcome._id });
  }

  /** The reminder's outcome, or null while it has none (one look-up by `_id`). */
  outcomeOf(id: ObjectId): Promise<ReminderOutcome | null> {
    return this.outcomes.findOne({ _id: id });
  }

  /** The reminder still to be decided, or null. */
  entryOf(id: ObjectId): Promise<DueReminder | null> {
    return this.entries.findOne({ _id: id });
  }

  /** The outcomes of these invitations' reminders, by id in hex (one look-up by `_id` each). */
  async outcomesOf(ids: readonly ObjectId[]): Promise<Map<string, ReminderOutcome>> {
    const found = await Promise.all(ids.map((_id) => this.outcomes.findOne({ _id })));
    return new Map(found.filter((o) => o !== null).map((o) => [o._id.toHexString(), o]));
  }

  /** Erasure, as InvitationQueue.forget: these invitations' reminders, and with `address` any record quoting it. */
  async forget(ids: ObjectId[], address?: string): Promise<number> {
    const byId = { _id: { $in: ids } };
    const quoting = (field: 'lastError' | 'reason') => (address ? [{ [field]: mentionsAddress(address) }] : []);
    const entries = await this.entries.deleteMany({ $or: [byId, ...quoting('lastError')] });
    await this.claims.forget(ids);
    const outcomes = await this.outcomes.deleteMany({ $or: [byId, ...quoting('reason')] });
    return entries.deletedCount + outcomes.deletedCount;
  }
}
