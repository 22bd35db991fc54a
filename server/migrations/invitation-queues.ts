// Start-up step: the invitation e-mails and reminders that a version before the work queue queued in
// `invitation_queue` and `invitation_reminders` (claims in `invitation_claims`, `reminder_claims`) move to their work
// queues (`invitation_mail`, `reminder_mail`: server/invitations/queue.ts, reminder-queue.ts), keeping their due time,
// failed attempts and last error, so the drains send them with the Message-ID they would have had, once:
// - an entry whose e-mail went out (it has an outcome: the old run died before its clean-up) is dropped. Only entries
//   with a claim can have one (the old code recorded outcomes under a claim and kept the claim until the entry went),
//   so only theirs are looked up: the outcomes are the invitations' whole history, slow to read on FerretDB;
// - an entry an old worker still holds (a live claim, during a rolling upgrade) is left to it: it finishes it in the
//   old collection, or dies, and the next start moves it;
// - the rest is queued under its key before it leaves the old collection, so a second run (another process starting
//   at once, or a restart after a crash) finds it queued already.
// No marker: only older versions write the old collections, so after the first run every start reads empty ones.
import type { Collection, Db } from '../db/index.js';
import { WorkQueue } from '../queue/work-queue.js';
import type { Services } from '../services.js';
import type { ObjectId } from 'mongodb';

/** An entry as the versions before the work queue stored it (both queues alike). */
interface LegacyEntry {
  _id: ObjectId;
  due: Date;
  attempts: number;
  lastError: string | null;
}

interface LegacyClaim {
  /** The entry's `_id` (a take-over marker's is a string). */
  _id: ObjectId;
  until: Date;
  takeover?: true;
}

/** Old queue, its claims, its outcomes, the new queue. */
const LEGACY_INVITATION_QUEUES = [
  // The collections as this version names them (invitations/queue.ts, reminder-queue.ts): a migration records the
  // shapes of its day, so it names them itself rather than following later renames.
  ['invitation_queue', 'invitation_claims', 'invitation_outcomes', 'invitation_mail'],
  ['invitation_reminders', 'reminder_claims', 'reminder_outcomes', 'reminder_mail'],
] as const;

const PAGE = 500;

/** Returns how many entries were moved to the work queues. */
export async function migrateInvitationQueues({ db, now }: Pick<Services, 'db' | 'now'>): Promise<number> {
  let moved = 0;
  for (const [old, claims, outcomes, queue] of LEGACY_INVITATION_QUEUES)
    moved += await moveQueue(db, now, db.collection<LegacyEntry>(old), claims, outcomes, queue);
  return moved;
}

async function moveQueue(
  db: Db,
  now: () => Date,
  legacy: Collection<LegacyEntry>,
  claimsName: string,
  outcomesName: string,
  queueName: string,
): Promise<number> {
  const claims = db.collection<LegacyClaim>(claimsName);
  const held = await claims.find({ takeover: { $exists: false } }).toArray();
  const live = new Set(held.filter((c) => c.until > now()).map((c) => c._id.toHexString()));
  const claimed = new Set(held.map((c) => c._id.toHexString()));
  const work = new WorkQueue<Record<string, never>>(db, queueName, now);
  const outcomes = db.collection<{ _id: ObjectId }>(outcomesName);
  let moved = 0;
  const skipped = new Set<string>();
  for (;;) {
    const page = (
      await legacy
        .find({})
        .limit(PAGE + skipped.size)
        .toArray()
    ).filter((e) => !skipped.has(e._id.toHexString()));
    if (page.length === 0) break;
    const leftToOldWorker = page.filter((e) => live.has(e._id.toHexString()));
    for (const e of leftToOldWorker) skipped.add(e._id.toHexString());
    const movable = page.filter((e) => !live.has(e._id.toHexString()));
    const sent = new Set<string>();
    for (const e of movable.filter((e) => claimed.has(e._id.toHexString())))
      if (await outcomes.findOne({ _id: e._id }, { projection: { _id: 1 } })) sent.add(e._id.toHexString());
    const queued = await Promise.all(
      movable
        .filter((e) => !sent.has(e._id.toHexString()))
        .map(({ _id, due, attempts, lastError }) =>
          work.enqueue(_id.toHexString(), {}, due, { attempts, lastError: lastError ?? null }),
        ),
    );
    moved += queued.filter(Boolean).length;
    if (movable.length) {
      const ids = movable.map((e) => e._id);
      await legacy.deleteMany({ _id: { $in: ids } });
      await claims.deleteMany({ _id: { $in: ids } });
    }
  }
  return moved;
}
