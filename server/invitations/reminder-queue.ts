// The reminder of each invitation, beside it as its first e-mail's sending state is (queue.ts explains why):
// - `reminder_mail` and `reminder_mail_claims`: one work item (server/queue/work-queue.ts) per reminder still to be
//   decided, keyed by the invitation's `_id` in hex, written when the invitation is queued (only invitations queued
//   since reminders exist have one: no burst over the history), due `reminder_days` after the invitation's scheduled
//   time, finished once the reminder was sent or found not to be wanted;
// - `reminder_outcomes`: insert-only, one per invitation: sent (when, Message-ID), skipped (why), failed (why).
// The drain reads only the due entries of the small queue, never the invitations' history. Before the work queue the
// entries were in `invitation_reminders` (claims in `reminder_claims`): server/migrations/invitation-queues.ts moves
// them.
import type { ObjectId } from 'mongodb';
import type { Collection, Db } from '../db/index.js';
import { GroupCommit } from '../db/group-commit.js';
import { isDuplicateKey } from '../db/index.js';
import { mentionsAddress } from '../email.js';
import { WorkQueue } from '../queue/work-queue.js';
import { asQueued } from './queue.js';

export const REMINDER_MAIL_QUEUE = 'reminder_mail';

const hex = (ids: readonly ObjectId[]): string[] => ids.map((id) => id.toHexString());

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
  private readonly work: WorkQueue<Record<string, never>>;
  private readonly outcomes: Collection<ReminderOutcome>;

  constructor(db: Db, now: () => Date = () => new Date()) {
    this.work = new WorkQueue<Record<string, never>>(db, REMINDER_MAIL_QUEUE, now);
    this.outcomes = db.collection<ReminderOutcome>('reminder_outcomes');
  }

  ensureIndexes(): Promise<void> {
    return this.work.ensureIndexes();
  }

  /** Schedules the reminder of an invitation (grouped with concurrent ones, as Add invitation comes in bursts). */
  async schedule(id: ObjectId, due: Date): Promise<void> {
    await this.work.enqueue(id.toHexString(), {}, due);
  }

  /** Drops reminders without deciding (their invitation was a repeat, or is gone). */
  cancel(ids: readonly ObjectId[]): Promise<void> {
    return this.work.cancel(hex(ids));
  }

  /** Cancels the reminder of an invitation that turned out a repeat, grouped as InvitationQueue.takeBack explains. */
  takeBack(id: ObjectId): Promise<void> {
    return this.takeBacks.add(id);
  }

  private readonly takeBacks = new GroupCommit<ObjectId>(async (ids) => {
    await this.cancel(ids);
  });

  /**
   * Claims up to `limit` due entries for `holder` (entries other runs hold are skipped). One taken over from a run
   * that died after it recorded the reminder's outcome is only finished, not decided again.
   */
  async claimDue(holder: string, limit: number, leaseMs: number): Promise<DueReminder[]> {
    for (let round = 0; round < 3; round++) {
      const taken = await this.work.take(holder, limit, leaseMs);
      if (taken.length === 0) return [];
      const orphans = taken.filter((item) => item.takenOver).map(asQueued);
      const done = orphans.length ? await this.outcomesOf(orphans.map((e) => e._id)) : new Map();
      if (done.size) await this.work.finishAll(holder, [...done.keys()]);
      const entries = taken.filter((item) => !done.has(item._id)).map(asQueued);
      if (entries.length) return entries;
    }
    return [];
  }

  release(holder: string): Promise<void> {
    return this.work.release(holder);
  }

  /** Claims and take-over markers of runs that died before `before` (no TTL indexes on FerretDB). */
  prune(before: Date): Promise<number> {
    return this.work.prune(before);
  }

  /** Not yet: decide again at `due` (the first e-mail went out later than planned, or is still being retried). */
  async postpone(id: ObjectId, due: Date, attempts?: number, lastError?: string): Promise<void> {
    await this.work.postpone(
      id.toHexString(),
      due,
      attempts === undefined ? undefined : { attempts, lastError: lastError ?? null },
    );
  }

  /**
   * Records how the reminder ended and removes its entry (`holder`'s claim goes with it). A second record (after a
   * crash) keeps the first.
   */
  async finish(outcome: ReminderOutcome, holder = ''): Promise<void> {
    try {
      await this.outcomes.insertOne(outcome);
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
    }
    await this.work.finish(holder, outcome._id.toHexString());
  }

  /** The reminder's outcome, or null while it has none (one look-up by `_id`). */
  outcomeOf(id: ObjectId): Promise<ReminderOutcome | null> {
    return this.outcomes.findOne({ _id: id });
  }

  /** The reminder still to be decided, or null. */
  async entryOf(id: ObjectId): Promise<DueReminder | null> {
    const item = await this.work.get(id.toHexString());
    return item ? asQueued(item) : null;
  }

  /** The outcomes of these invitations' reminders, by id in hex (one look-up by `_id` each). */
  async outcomesOf(ids: readonly ObjectId[]): Promise<Map<string, ReminderOutcome>> {
    const found = await Promise.all(ids.map((_id) => this.outcomes.findOne({ _id })));
    return new Map(found.filter((o) => o !== null).map((o) => [o._id.toHexString(), o]));
  }

  /** Erasure, as InvitationQueue.forget: these invitations' reminders, and with `address` any record quoting it. */
  async forget(ids: ObjectId[], address?: string): Promise<number> {
    const quoting = address ? mentionsAddress(address) : undefined;
    const entries = await this.work.forgetKeys(hex(ids), quoting);
    const byId = { _id: { $in: ids } };
    const outcomes = await this.outcomes.deleteMany(quoting ? { $or: [byId, { reason: quoting }] } : byId);
    return entries + outcomes.deletedCount;
  }
}
