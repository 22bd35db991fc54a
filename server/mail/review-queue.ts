// The e-mails about reviews still to be sent (edit link, confirmation link, the shop's reply): a work queue
// (server/queue/work-queue.ts: `review_mail` and `review_mail_claims`), one item per e-mail, written right after the
// review write that makes it due (the review store calls `follow` for every write) and finished once it went out or
// is no longer wanted. The item keeps the failed attempts and the last error (`mail_attempts` before the work queue).
// The mail drain (reviews.ts) reads the items due, never the reviews collection as a whole (a scan on FerretDB).
//
// An item only says "look at this review then": whether the e-mail is still wanted is read from the review when it
// is due (dueMails), so an item that outlived its reason (the review was deleted, the reply replaced) just goes.
//
// A review's reply e-mails are at least a day apart (docs/decisions/reviews.md): a reply within the day of the last one is
// queued for the day's end, and whichever revision is current then is sent, once.
import { isDuplicateKey, type Db } from '../db/index.js';
import { mentionsAddress } from '../email.js';
import { type TakenItem, type WorkItem, WorkQueue } from '../queue/work-queue.js';
import type { Review, WriteFollower } from '../reviews/model.js';
import { DAY_MS } from '../time.js';

import type { ReviewMailKind } from './model.js';

export type { ReviewMailKind };

export interface QueuedReviewMail {
  /** `<review id>:<kind>`, and the reply's revision for a reply: one entry per e-mail. */
  _id: string;
  reviewId: number;
  kind: ReviewMailKind;
  /** When to look at it: the edit e-mail's due time, a reply's day end, else when it was queued; later, the next retry. */
  due: Date;
}

/** What the work item holds besides its key and due time. */
type ReviewMail = Pick<QueuedReviewMail, 'reviewId' | 'kind'>;

export const REVIEW_MAIL_QUEUE = 'review_mail';

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
  private readonly work: WorkQueue<ReviewMail>;

  constructor(
    private readonly db: Db,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.work = new WorkQueue<ReviewMail>(db, REVIEW_MAIL_QUEUE, now);
  }

  ensureIndexes(): Promise<void> {
    return this.work.ensureIndexes();
  }

  /** The review store's follower: queues the e-mails this write made due (a repeat keeps one item each). */
  async follow(before: Review | undefined, after: Review): Promise<void> {
    const mails = outstandingMails(after, this.now()).filter((m) => !before || changedFor(m.kind, before, after));
    for (const { reviewId, kind, due } of mails) await this.put(queueKey(after, kind), { reviewId, kind }, due);
  }

  /**
   * Queues the e-mail, or moves the due time of the one queued (an edit e-mail planned again); one waiting for a
   * retry keeps its retry time if that is later.
   */
  private async put(key: string, mail: ReviewMail, due: Date): Promise<void> {
    if (await this.work.enqueue(key, mail, due)) return;
    const queued = await this.work.get(key);
    if (queued && !(queued.attempts > 0 && queued.due > due)) await this.work.postpone(key, due);
  }

  /** Up to `limit` items due now, claimed for `holder` (items other runs hold are left to them), earliest first. */
  take(holder: string, limit: number, leaseMs: number): Promise<TakenItem<ReviewMail>[]> {
    return this.work.take(holder, limit, leaseMs);
  }

  /** Looks at the item again at `at`, no failure counted (the review's e-mail is planned for later). */
  postpone(key: string, at: Date): Promise<void> {
    return this.work.postpone(key, at);
  }

  /** A failed attempt: tried again at `at`, the attempt counted and its error kept. */
  retryLater(holder: string, key: string, at: Date, error: string): Promise<void> {
    return this.work.retryLater(holder, key, at, error);
  }

  /** Sent, given up, or no longer wanted. */
  done(holder: string, key: string): Promise<void> {
    return this.work.finish(holder, key);
  }

  /** Extends the holder's claims (a long page). */
  renew(holder: string, leaseMs: number): Promise<Set<string>> {
    return this.work.renew(holder, leaseMs);
  }

  /** Lets go of what the run still holds (postponed items, a run that stopped early). */
  release(holder: string): Promise<void> {
    return this.work.release(holder);
  }

  /** Claims and take-over markers of runs that died before `before` (no TTL indexes on FerretDB). */
  prune(before: Date): Promise<number> {
    return this.work.prune(before);
  }

  /**
   * Moves an e-mail the version before the work queue queued (server/migrations/review-mails.ts), with its failed
   * attempts; false when it was moved already.
   */
  adopt(key: string, mail: ReviewMail, due: Date, history: Pick<WorkItem<ReviewMail>, 'attempts' | 'lastError'>) {
    return this.work.enqueue(key, mail, due, history);
  }

  /**
   * Erasure: the items about these reviews and, with `address`, every item whose last error quotes it. Returns how
   * many of them held a failed attempt (the records that were kept apart, in `mail_attempts`, before the work queue).
   * A scan of the queue, which is small.
   */
  async forget(reviewIds: readonly number[], address?: string): Promise<number> {
    const removed = await this.work.remove(
      { reviewId: { $in: [...reviewIds] } },
      address ? mentionsAddress(address) : undefined,
    );
    return removed.filter((item) => item.attempts > 0).length;
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
      const mails = batch.flatMap((r) =>
        outstandingMails(r, this.now()).map(({ reviewId, kind, due }) =>
          this.work.enqueue(queueKey(r, kind), { reviewId, kind }, due),
        ),
      );
      queued += (await Promise.all(mails)).length;
    }
    try {
      await migrations.insertOne({ _id: MIGRATION, done: this.now() });
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
    }
    return queued;
  }
}
