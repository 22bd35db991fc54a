// The e-mails about reviews still to be sent (edit link, confirmation link, the shop's reply): a small queue
// collection (`review_mail_queue`), one document per e-mail, written right after the review write that makes it due
// (the review store calls `follow` for every write) and deleted once it went out or is no longer wanted. The mail
// drain (reviews.ts) reads the entries due, never the reviews collection as a whole (a scan on FerretDB).
//
// An entry only says "look at this review then": whether the e-mail is still wanted is read from the review when it
// is due (dueMails), so an entry that outlived its reason (the review was deleted, the reply replaced) just goes.
//
// A review's reply e-mails are at least a day apart (docs/decisions/reviews.md): a reply within the day of the last one is
// queued for the day's end, and whichever revision is current then is sent, once.
import { isDuplicateKey, onlyDuplicateKeys, type Collection, type Db } from '../db/index.js';
import type { Review, WriteFollower } from '../reviews/model.js';
import { DAY_MS } from '../time.js';

export type ReviewMailKind = 'edit' | 'confirm' | 'reply';

export interface QueuedReviewMail {
  /** `<review id>:<kind>`, and the reply's revision for a reply: one entry per e-mail. */
  _id: string;
  reviewId: number;
  kind: ReviewMailKind;
  /** When to look at it: the edit e-mail's due time, a reply's day end, else when it was queued; later, the next retry. */
  due: Date;
}

const MIGRATION = 'review_mail_queue.backfill';

/** The least time between two reply e-mails about one review. */
const REPLY_MAIL_SPACING_MS = DAY_MS;

/** When the review's next reply e-mail may go: a day after the last went out; null when none went out yet. */
export function replyMailNotBefore(review: Pick<Review, 'replyMailSent'>): Date | null {
  return review.replyMailSent ? new Date(review.replyMailSent.getTime() + REPLY_MAIL_SPACING_MS) : null;
}

const later = (a: Date, b: Date | null): Date => (b && b > a ? b : a);

/** The e-mails the review, as written, still waits for, and from when. Pure: the queue's and the migration's rule. */
export function outstandingMails(review: Review, queuedAt: Date): Omit<QueuedReviewMail, '_id'>[] {
  if (review.deleted || !review.email) return [];
  const mails: Omit<QueuedReviewMail, '_id'>[] = [];
  if (review.confirmToken && !review.confirmMailSent)
    mails.push({ reviewId: review.id, kind: 'confirm', due: queuedAt });
  if (review.editToken && !review.editMailSent && review.editMailDue)
    mails.push({ reviewId: review.id, kind: 'edit', due: review.editMailDue });
  if (review.reply?.notify && !review.reply.notified) {
    mails.push({ reviewId: review.id, kind: 'reply', due: later(queuedAt, replyMailNotBefore(review)) });
  }
  return mails;
}

export const queueKey = (review: Pick<Review, 'id' | 'reply'>, kind: ReviewMailKind): string =>
  kind === 'reply' ? `${review.id}:reply:${review.reply?.revision ?? 0}` : `${review.id}:${kind}`;

/** Whether the write changed what an e-mail of this kind is about (else its entry is there already). */
function changedFor(kind: ReviewMailKind, before: Review, after: Review): boolean {
  if (kind === 'confirm')
    return before.confirmToken !== after.confirmToken || before.confirmMailSent !== after.confirmMailSent;
  if (kind === 'edit')
    return before.editMailDue?.getTime() !== after.editMailDue?.getTime() || before.editToken !== after.editToken;
  return before.reply?.revision !== after.reply?.revision || before.reply?.notify !== after.reply?.notify;
}

export class ReviewMailQueue implements WriteFollower {
  private readonly collection: Collection<QueuedReviewMail>;

  constructor(
    private readonly db: Db,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.collection = db.collection<QueuedReviewMail>('review_mail_queue');
  }

  async ensureIndexes(): Promise<void> {
    await this.collection.createIndex({ due: 1 }, { name: 'due' });
  }

  /** The review store's follower: queues the e-mails this write made due (a repeat keeps one entry each). */
  async follow(before: Review | undefined, after: Review): Promise<void> {
    const mails = outstandingMails(after, this.now()).filter((m) => !before || changedFor(m.kind, before, after));
    for (const mail of mails) await this.put({ _id: queueKey(after, mail.kind), ...mail });
  }

  /** Writes the entry by `_id` (its due time may have moved: an edit e-mail planned again). */
  private async put(entry: QueuedReviewMail): Promise<void> {
    const { _id, ...fields } = entry;
    try {
      await this.collection.updateOne({ _id }, { $set: fields }, { upsert: true });
    } catch (err) {
      // Two writes of the same review at once (an upsert is not atomic on FerretDB): the other made it.
      if (!isDuplicateKey(err)) throw err;
      await this.collection.updateOne({ _id }, { $set: fields });
    }
  }

  /** The entries due at `now`, earliest first. The queue holds only e-mails still to be sent: a small scan. */
  async due(now: Date, limit: number): Promise<QueuedReviewMail[]> {
    return this.collection
      .find({ due: { $lte: now } })
      .sort({ due: 1, _id: 1 })
      .limit(limit)
      .toArray();
  }

  /** Looks at the entry again at `at` (a retry, or another run holds it). */
  async postpone(id: string, at: Date): Promise<void> {
    await this.collection.updateOne({ _id: id }, { $set: { due: at } });
  }

  /** Sent, given up, or no longer wanted. */
  async done(id: string): Promise<void> {
    await this.collection.deleteOne({ _id: id });
  }

  /** Erasure: the entries about these reviews (a scan of the queue, which is small). */
  async forget(reviewIds: readonly number[]): Promise<number> {
    if (reviewIds.length === 0) return 0;
    return (await this.collection.deleteMany({ reviewId: { $in: [...reviewIds] } })).deletedCount;
  }

  /**
   * Start-up migration, once (a marker in `migrations`; a repeat queues nothing twice): e-mails outstanding on
   * reviews written before this queue existed, found then by a sweep over the reviews.
   */
  async migrate(reviews: { needingFollowUp(): AsyncGenerator<Review[]> }): Promise<number> {
    const migrations = this.db.collection<{ _id: string; done: Date }>('migrations');
    if (await migrations.findOne({ _id: MIGRATION })) return 0;
    let queued = 0;
    for await (const batch of reviews.needingFollowUp()) {
      const entries = batch.flatMap((r) =>
        outstandingMails(r, this.now()).map((m) => ({ _id: queueKey(r, m.kind), ...m })),
      );
      if (entries.length === 0) continue;
      try {
        await this.collection.insertMany(entries, { ordered: false });
      } catch (err) {
        if (!onlyDuplicateKeys(err)) throw err;
      }
      queued += entries.length;
    }
    try {
      await migrations.insertOne({ _id: MIGRATION, done: this.now() });
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
    }
    return queued;
  }
}
