// E-mails about a review the customer wrote: the edit link (pop-up reviews, after the order's inviteDelay), the
// confirmation link (reviews that wait for their writer), and the shop's reply (when the shop asked to notify).
// The `mail.reviews` drain.
//
// What is due is read from the review itself (editMailDue/editMailSent, confirmToken/confirmMailSent,
// reply.notify/reply.notified). Attempts, retries and claims live in `mail_attempts`, one document per Message-ID,
// so the review is only written once a message went out, directly on the collection: mail bookkeeping is not a
// change of the review (no new version, no webhook).
import type { Services } from '../services.js';
import type { Review } from '../reviews/store.js';
import type { Webshop } from '../webshops/store.js';
import { isDuplicateKey, type Collection, type Db } from '../db/index.js';
import { mentionsAddress } from '../invitations/email.js';
import { messageIdFor, type MailPurpose } from './message-id.js';
import { afterFailure, classifySendError, describeSendError, isServerFailure, mailSweepMs } from './retry.js';
import { confirmMail, editMail, replyMail, type RenderedMail } from './templates.js';

/** The job name the embed and reply features trigger after storing something that needs an e-mail. */
export const REVIEW_MAIL_JOB = 'mail.reviews';

export type ReviewMailKind = 'edit' | 'confirm' | 'reply';

export interface MailAttempt {
  /** The Message-ID. */
  _id: string;
  reviewId: number;
  kind: ReviewMailKind;
  attempts: number;
  /** Not before then: the end of a claim or the next retry. */
  nextAttempt: Date;
  failed: boolean;
  lastError: string | null;
}

const PAGE = 200;

const attemptsIn = (db: Db) => db.collection<MailAttempt>('mail_attempts');

/**
 * Erasure: forgets the attempts at e-mails about these reviews (their errors may quote the address). With
 * `address` (an erasure in every shop), also every attempt whose error quotes it, whichever review it was about.
 * A scan on FerretDB; erasures are rare.
 */
export async function forgetReviewMails(db: Db, reviewIds: number[], address?: string): Promise<number> {
  const quoting = address ? [{ lastError: mentionsAddress(address) }] : [];
  const result = await attemptsIn(db).deleteMany({ $or: [{ reviewId: { $in: reviewIds } }, ...quoting] });
  return result.deletedCount;
}

/** The e-mails a review is waiting for at `now`, in the order they are sent. */
export function dueMails(review: Review, now: Date): ReviewMailKind[] {
  if (review.deleted || !review.email) return [];
  const due: ReviewMailKind[] = [];
  if (review.confirmToken && !review.confirmMailSent) due.push('confirm');
  if (review.editToken && !review.editMailSent && review.editMailDue && review.editMailDue <= now) due.push('edit');
  if (review.reply?.notify && !review.reply.notified) due.push('reply');
  return due;
}

export function purposeOf(kind: ReviewMailKind, review: Review): MailPurpose {
  return kind === 'reply'
    ? { kind, reviewId: review.id, revision: review.reply?.revision ?? 0 }
    : { kind, reviewId: review.id };
}

export async function defineReviewMail(services: Services): Promise<void> {
  // On MongoDB each branch of the drain's query uses one of these instead of reading every review; FerretDB scans.
  const reviews = services.reviews.collection;
  await reviews.createIndex({ confirmMailSent: 1, confirmToken: 1 }, { name: 'mail_confirm' });
  await reviews.createIndex({ editMailSent: 1, editMailDue: 1 }, { name: 'mail_edit' });
  await reviews.createIndex({ 'reply.notify': 1, 'reply.notified': 1 }, { name: 'mail_reply' });
  services.scheduler.define(REVIEW_MAIL_JOB, (signal) => drainReviewMails(services, signal), mailSweepMs(services.config));
}

export async function drainReviewMails(services: Services, signal: { touch: () => Promise<void> }): Promise<void> {
  const attempts = attemptsIn(services.db);
  let after = 0;
  for (;;) {
    const now = services.now();
    // A scan either way on FerretDB; fine for a background job, and the candidates are few.
    const page = await services.reviews.collection
      .find(
        {
          id: { $gt: after },
          deleted: false,
          $or: [
            { confirmMailSent: null, confirmToken: { $ne: null } },
            { editMailSent: null, editMailDue: { $lte: now }, editToken: { $ne: null } },
            { 'reply.notify': true, 'reply.notified': null },
          ],
        },
        { projection: { _id: 0 } },
      )
      .sort({ id: 1 })
      .limit(PAGE)
      .toArray();
    if (page.length === 0) return;
    after = page[page.length - 1]!.id;
    await signal.touch();
    let touched = services.now().getTime();

    const mails = page.flatMap((review) =>
      dueMails(review, now).map((kind) => ({ review, kind, messageId: messageIdFor(purposeOf(kind, review), services.mailer.domain) })),
    );
    const known = await attempts.find({ _id: { $in: mails.map((m) => m.messageId) } }).toArray();
    const waiting = new Set(known.filter((a) => a.failed || a.nextAttempt > now).map((a) => a._id));
    for (const mail of mails) {
      if (waiting.has(mail.messageId)) continue;
      // Keep the job's lock while a long page is sent.
      if (services.now().getTime() - touched > services.config.scheduler.lockLifetimeMs / 2) {
        await signal.touch();
        touched = services.now().getTime();
      }
      const error = await sendOne(services, attempts, mail.review, mail.kind, mail.messageId);
      if (error !== undefined && isServerFailure(error)) {
        services.log.warn({ err: error }, 'mail server failing; review e-mails will be retried');
        return;
      }
    }
    if (page.length < PAGE) return;
  }
}

/** Claims, sends and records one review e-mail; returns the send error, if any. */
async function sendOne(
  services: Services,
  attempts: Collection<MailAttempt>,
  review: Review,
  kind: ReviewMailKind,
  messageId: string,
): Promise<unknown> {
  const now = services.now();
  const claimed = await claim(attempts, messageId, review.id, kind, now, services.config.scheduler.lockLifetimeMs);
  if (!claimed) return undefined;
  const shop = await services.webshops.get(review.shopId);
  if (!shop) {
    await attempts.updateOne({ _id: messageId }, { $set: { failed: true, lastError: 'the webshop no longer exists' } });
    return undefined;
  }
  try {
    await services.mailer.send({ fromName: shop.name, to: review.email, ...render(services, shop, review, kind), messageId });
  } catch (err) {
    const next = afterFailure(claimed.attempts, classifySendError(err), services.config.mail.retryScheduleMs, services.now());
    const lastError = describeSendError(err);
    await attempts.updateOne(
      { _id: messageId },
      { $set: 'retryAt' in next ? { nextAttempt: next.retryAt, lastError } : { failed: true, lastError: `${next.giveUp}: ${lastError}` } },
    );
    return err;
  }
  // Right after the server's acceptance: the only moment in which a crash can cause a second copy.
  await markSent(services, review, kind, services.now());
  await attempts.deleteOne({ _id: messageId });
  return undefined;
}

/**
 * Takes the e-mail for one lease: an upsert that only matches when no other run holds it and it is not waiting for
 * a retry. When it does not match, the insert collides on `_id`: someone else has it.
 */
async function claim(
  attempts: Collection<MailAttempt>,
  messageId: string,
  reviewId: number,
  kind: ReviewMailKind,
  now: Date,
  leaseMs: number,
): Promise<{ attempts: number } | undefined> {
  try {
    await attempts.updateOne(
      { _id: messageId, failed: false, nextAttempt: { $lte: now } },
      { $set: { reviewId, kind, nextAttempt: new Date(now.getTime() + leaseMs) }, $inc: { attempts: 1 }, $setOnInsert: { lastError: null } },
      { upsert: true },
    );
  } catch (err) {
    if (isDuplicateKey(err)) return undefined;
    throw err;
  }
  const doc = await attempts.findOne({ _id: messageId });
  return doc ? { attempts: doc.attempts } : undefined;
}

/**
 * Whether an e-mail to the review's address may repeat the writer's name and words: only when the review is
 * published and no longer waits for its writer, i.e. the address is the shop's, the writer confirmed it, or the
 * operator let the text out. Otherwise the address may be anyone's and the words a stranger's.
 */
export function mayQuoteWriter(review: Pick<Review, 'published' | 'confirmToken'>): boolean {
  return review.published && review.confirmToken === null;
}

function render(services: Services, shop: Webshop, review: Review, kind: ReviewMailKind): RenderedMail {
  const common = { language: review.language, shopName: shop.name, brandName: services.config.brandName };
  const base = services.config.baseUrl;
  switch (kind) {
    case 'edit':
      return editMail({ ...common, editUrl: `${base}/edit/${review.editToken}` });
    case 'confirm':
      return confirmMail({ ...common, confirmUrl: `${base}/confirm/${review.confirmToken}` });
    case 'reply': {
      const quote = mayQuoteWriter(review);
      return replyMail({
        ...common,
        customerName: quote ? review.name : '',
        reply: review.reply?.text ?? '',
        comment: quote ? review.comment : null,
      });
    }
  }
}

/** Records the e-mail on the review, only for the version of it that was sent (a newer reply gets its own). */
async function markSent(services: Services, review: Review, kind: ReviewMailKind, at: Date): Promise<void> {
  const reviews = services.reviews.collection;
  if (kind === 'edit') await reviews.updateOne({ id: review.id, editMailSent: null }, { $set: { editMailSent: at } });
  else if (kind === 'confirm') await reviews.updateOne({ id: review.id, confirmMailSent: null }, { $set: { confirmMailSent: at } });
  else {
    await reviews.updateOne(
      { id: review.id, 'reply.revision': review.reply?.revision ?? 0, 'reply.notified': null },
      { $set: { 'reply.notified': at } },
    );
  }
}
