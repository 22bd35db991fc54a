// E-mails about a review the customer wrote: the edit link (pop-up reviews, after the order's inviteDelay), the
// confirmation link (reviews that wait for their writer), and the shop's reply (when the shop asked to notify).
// The `mail.reviews` drain.
//
// What is due is queued with the review write that made it due (review-queue.ts); the drain reads the entries due
// and checks each against its review (dueMails) before sending. A run claims each e-mail (`review_mail_claims`,
// server/db/claims.ts); failed attempts and their retry time live in `mail_attempts`, one document per Message-ID, so
// the review is only written once a message went out, and then only its mail bookkeeping
// (ReviewStore.markMailSent): no new version, no webhook.
import type { Services } from '../services.js';
import type { Review } from '../reviews/model.js';
import type { Webshop } from '../webshops/store.js';
import { randomUUID } from 'node:crypto';
import { Claims } from '../db/claims.js';
import { JOB } from '../jobs/names.js';
import type { MailAttempt, MailAttemptStore } from './attempt-store.js';
import { messageIdFor, type MailPurpose } from './message-id.js';
import { afterFailure, classifySendError, describeSendError, isServerFailure, mailSweepMs } from './retry.js';
import { confirmMail, editMail, replyMail, type RenderedMail } from './templates.js';
import { queueKey, replyMailNotBefore, type QueuedReviewMail, type ReviewMailKind } from './review-queue.js';

const PAGE = 200;

/**
 * Erasure: forgets the attempts at e-mails about these reviews (their errors may quote the address) and their
 * queue entries. With `address` (an erasure in every shop), also every attempt whose error quotes it, whichever
 * review it was about. A scan on FerretDB; erasures are rare.
 */
export async function forgetReviewMails(
  services: Pick<Services, 'mailAttempts' | 'reviewMails'>,
  reviewIds: number[],
  address?: string,
): Promise<number> {
  const deleted = await services.mailAttempts.forget(reviewIds, address);
  await services.reviewMails.forget(reviewIds);
  return deleted;
}

/** The e-mails a review is waiting for at `now`, in the order they are sent. */
function dueMails(review: Review, now: Date): ReviewMailKind[] {
  if (review.deleted || !review.email) return [];
  const due: ReviewMailKind[] = [];
  if (review.confirmToken && !review.confirmMailSent) due.push('confirm');
  if (review.editToken && !review.editMailSent && review.editMailDue && review.editMailDue <= now) due.push('edit');
  if (review.reply?.notify && !review.reply.notified && !isLater(replyMailNotBefore(review), now)) due.push('reply');
  return due;
}

const isLater = (at: Date | null, now: Date): at is Date => at !== null && at > now;

/** When an e-mail still wanted but not due may go: an edit e-mail planned again, a reply within a day of the last. */
function dueLater(kind: ReviewMailKind, review: Review): Date | null {
  if (review.deleted || !review.email) return null;
  if (kind === 'edit' && !review.editMailSent) return review.editMailDue;
  if (kind === 'reply' && review.reply?.notify && !review.reply.notified) return replyMailNotBefore(review);
  return null;
}

function purposeOf(kind: ReviewMailKind, review: Review): MailPurpose {
  return kind === 'reply'
    ? { kind, reviewId: review.id, revision: review.reply?.revision ?? 0 }
    : { kind, reviewId: review.id };
}

export function defineReviewMail(services: Services): void {
  services.scheduler.define(
    JOB.reviewMail,
    (signal) => drainReviewMails(services, signal),
    mailSweepMs(services.config),
  );
}

/** What to do with a queue entry whose review was read: send it, look again later, or drop it. */
type EntryVerdict = { send: true } | { send: false; laterAt?: Date };

/** Whether the entry's e-mail is still wanted at `now`, as its review now reads. Pure. */
export function verdictFor(entry: QueuedReviewMail, review: Review | undefined, now: Date): EntryVerdict {
  // Gone, replaced by a newer reply, or sent meanwhile: nothing to send.
  if (!review || queueKey(review, entry.kind) !== entry._id) return { send: false };
  if (dueMails(review, now).includes(entry.kind)) return { send: true };
  const later = dueLater(entry.kind, review);
  return isLater(later, now) ? { send: false, laterAt: later } : { send: false };
}

export async function drainReviewMails(services: Services, signal: { touch: () => Promise<void> }): Promise<void> {
  const attempts = services.mailAttempts;
  const queue = services.reviewMails;
  let tried = false;
  for (;;) {
    const now = services.now();
    const entries = await queue.due(now, PAGE);
    if (entries.length === 0) break;
    await signal.touch();
    let touched = services.now().getTime();
    // One read for the page (a scan on FerretDB, once per page of due e-mails, not per sweep).
    const reviews = new Map(
      (await services.reviews.byIds([...new Set(entries.map((e) => e.reviewId))])).map((r) => [r.id, r]),
    );
    const mails: { entry: QueuedReviewMail; review: Review; messageId: string }[] = [];
    for (const entry of entries) {
      const review = reviews.get(entry.reviewId);
      const verdict = verdictFor(entry, review, now);
      if (verdict.send)
        mails.push({
          entry,
          review: review!,
          messageId: messageIdFor(purposeOf(entry.kind, review!), services.mailer.domain),
        });
      else if (verdict.laterAt) await queue.postpone(entry._id, verdict.laterAt);
      else await queue.done(entry._id);
    }
    const known = await attempts.byMessageIds(mails.map((m) => m.messageId));
    for (const mail of mails) {
      const attempt = known.get(mail.messageId);
      // Given up for good, or waiting for its retry or another run's claim: the entry follows the attempt.
      if (attempt?.failed) {
        await queue.done(mail.entry._id);
        continue;
      }
      if (attempt && attempt.nextAttempt > now) {
        await queue.postpone(mail.entry._id, attempt.nextAttempt);
        continue;
      }
      // Keep the job's lock while a long page is sent.
      if (services.now().getTime() - touched > services.config.scheduler.lockLifetimeMs / 2) {
        await signal.touch();
        touched = services.now().getTime();
      }
      tried = true;
      const outcome = await sendOne(services, attempts, mail.review, mail.entry.kind, mail.messageId, attempt);
      if (outcome.kind === 'later') await queue.postpone(mail.entry._id, outcome.at);
      else await queue.done(mail.entry._id);
      if (outcome.kind === 'later' && outcome.error !== undefined && isServerFailure(outcome.error)) {
        services.log.warn({ err: outcome.error }, 'mail server failing; review e-mails will be retried');
        return;
      }
    }
    if (entries.length < PAGE) break;
  }
  // Claims are released after each e-mail; a run that died left its own, and take-overs leave markers.
  if (tried)
    await new Claims(services.db, 'review_mail_claims', services.now).prune(
      new Date(services.now().getTime() - 86_400_000),
    );
}

type SendOutcome = { kind: 'done' } | { kind: 'later'; at: Date; error?: unknown };

/**
 * Claims, sends and records one review e-mail. The claim (server/db/claims.ts, keyed by the Message-ID) keeps two
 * runs from sending it at once; `previous` is what earlier attempts left (their count and error), if any.
 */
async function sendOne(
  services: Services,
  attempts: MailAttemptStore,
  review: Review,
  kind: ReviewMailKind,
  messageId: string,
  previous: MailAttempt | undefined,
): Promise<SendOutcome> {
  const now = services.now();
  const lease = services.config.scheduler.lockLifetimeMs;
  const claims = new Claims(services.db, 'review_mail_claims', services.now);
  const holder = randomUUID();
  // Another run has it: look again when its claim ends (it removes the entry once sent).
  if (!(await claims.claimOne(messageId, holder, lease))) return { kind: 'later', at: new Date(now.getTime() + lease) };
  try {
    const tries = (previous?.attempts ?? 0) + 1;
    const record = (fields: Pick<MailAttempt, 'nextAttempt' | 'failed' | 'lastError'>) =>
      attempts.record(messageId, { reviewId: review.id, kind, attempts: tries, ...fields });
    const shop = await services.webshops.get(review.shopId);
    if (!shop) {
      await record({ nextAttempt: now, failed: true, lastError: 'the webshop no longer exists' });
      return { kind: 'done' };
    }
    try {
      await services.mailer.send({
        fromName: shop.name,
        to: review.email,
        ...render(services, shop, review, kind),
        messageId,
      });
    } catch (err) {
      const next = afterFailure(tries, classifySendError(err), services.config.mail.retryScheduleMs, services.now());
      const lastError = describeSendError(err);
      if ('retryAt' in next) {
        await record({ nextAttempt: next.retryAt, failed: false, lastError });
        return { kind: 'later', at: next.retryAt, error: err };
      }
      await record({ nextAttempt: now, failed: true, lastError: `${next.giveUp}: ${lastError}` });
      return { kind: 'done' };
    }
    // Right after the server's acceptance: the only moment in which a crash can cause a second copy.
    await services.reviews.markMailSent(review, kind, services.now());
    if (previous) await attempts.remove(messageId);
    return { kind: 'done' };
  } finally {
    await claims.release(holder);
  }
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
