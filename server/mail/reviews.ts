// E-mails about a review the customer wrote: the edit link (pop-up reviews, after the order's inviteDelay), the
// confirmation link (reviews that wait for their writer), and the shop's reply (when the shop asked to notify).
// The `mail.reviews` drain.
//
// What is due is queued with the review write that made it due (review-queue.ts, a work queue); the drain takes the
// items due (claimed for the run) and checks each against its review (dueMails) before sending. Failed attempts and
// their retry time live on the item, so the review is only written once a message went out, and then only its mail
// bookkeeping (ReviewStore.markMailSent): no new version, no webhook.
import type { Services } from '../services.js';
import type { Review } from '../reviews/model.js';
import type { Webshop } from '../webshops/model.js';
import { randomUUID } from 'node:crypto';
import { JOB } from '../jobs/names.js';
import type { TakenItem } from '../queue/work-queue.js';
import { messageIdFor, type MailPurpose } from './message-id.js';
import { afterFailure, classifySendError, describeSendError, isServerFailure, mailSweepMs } from './retry.js';
import { confirmMail, editMail, replyMail, type RenderedMail } from './templates.js';
import { queueKey, replyMailNotBefore, type QueuedReviewMail, type ReviewMailKind } from './review-queue.js';

/** What sending a review e-mail uses of the services. */
type ReviewMailDeps = Pick<Services, 'config' | 'log' | 'mailer' | 'now' | 'reviewMails' | 'reviews' | 'webshops'>;

const PAGE = 200;

/**
 * Erasure: forgets the e-mails about these reviews still queued (their errors may quote the address); returns how
 * many had failed attempts. With `address` (an erasure in every shop), also every one whose error quotes it,
 * whichever review it was about. A scan of the small queue; erasures are rare.
 */
export function forgetReviewMails(
  services: Pick<Services, 'reviewMails'>,
  reviewIds: number[],
  address?: string,
): Promise<number> {
  return services.reviewMails.forget(reviewIds, address);
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

export function defineReviewMail(
  services: Pick<Services, 'config' | 'log' | 'mailer' | 'now' | 'reviewMails' | 'reviews' | 'scheduler' | 'webshops'>,
): void {
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

/** Claims of runs that died are pruned this long after they ran out. */
const PRUNE_AFTER_MS = 86_400_000;

export async function drainReviewMails(
  services: ReviewMailDeps,
  signal: { touch: () => Promise<void> },
): Promise<void> {
  const queue = services.reviewMails;
  const lease = services.config.scheduler.lockLifetimeMs;
  let tried = false;
  for (;;) {
    const holder = randomUUID();
    const now = services.now();
    const items = await queue.take(holder, PAGE, lease);
    if (items.length === 0) break;
    tried = true;
    try {
      await signal.touch();
      // One read for the page (a scan on FerretDB, once per page of due e-mails, not per sweep).
      const reviews = new Map(
        (await services.reviews.byIds([...new Set(items.map((i) => i.payload.reviewId))])).map((r) => [r.id, r]),
      );
      let touched = services.now().getTime();
      for (const item of items) {
        const review = reviews.get(item.payload.reviewId);
        const verdict = verdictFor({ _id: item._id, ...item.payload, due: item.due }, review, now);
        if (!verdict.send) {
          if (verdict.laterAt) await queue.postpone(item._id, verdict.laterAt);
          else await queue.done(holder, item._id);
          continue;
        }
        // Keep the job's lock and the items' claims while a long page is sent.
        if (services.now().getTime() - touched > lease / 2) {
          await signal.touch();
          await queue.renew(holder, lease);
          touched = services.now().getTime();
        }
        const error = await sendOne(services, holder, review!, item);
        if (error !== undefined && isServerFailure(error)) {
          services.log.warn({ err: error }, 'mail server failing; review e-mails will be retried');
          return;
        }
      }
    } finally {
      // Postponed items, and what a stopped run did not get to, stay queued for the next run.
      await queue.release(holder);
    }
    if (items.length < PAGE) break;
  }
  // Claims are released as pages end; a run that died left its own, and take-overs leave markers.
  if (tried) await queue.prune(new Date(services.now().getTime() - PRUNE_AFTER_MS));
}

/**
 * Sends one review e-mail the run holds and records what came of it: finished once sent or given up, else retried
 * on the mail schedule. Returns the error of a failed attempt that is retried.
 */
async function sendOne(
  services: ReviewMailDeps,
  holder: string,
  review: Review,
  item: TakenItem<{ reviewId: number; kind: ReviewMailKind }>,
): Promise<unknown> {
  const queue = services.reviewMails;
  const { kind } = item.payload;
  const messageId = messageIdFor(purposeOf(kind, review), services.mailer.domain);
  const giveUp = async (reason: string) => {
    services.log.warn({ mail: messageId, reason }, 'review e-mail given up');
    await queue.done(holder, item._id);
  };
  const shop = await services.webshops.get(review.shopId);
  if (!shop) return giveUp('the webshop no longer exists');
  try {
    await services.mailer.send({
      fromName: shop.name,
      to: review.email,
      ...render(services, shop, review, kind),
      messageId,
    });
  } catch (err) {
    const next = afterFailure(
      item.attempts + 1,
      classifySendError(err),
      services.config.mail.retryScheduleMs,
      services.now(),
    );
    const lastError = describeSendError(err);
    if ('giveUp' in next) return void (await giveUp(`${next.giveUp}: ${lastError}`));
    await queue.retryLater(holder, item._id, next.retryAt, lastError);
    return err;
  }
  // Right after the server's acceptance: the only moment in which a crash can cause a second copy.
  await services.reviews.markMailSent(review, kind, services.now());
  await queue.done(holder, item._id);
  return undefined;
}

/**
 * Whether an e-mail to the review's address may repeat the writer's name and words: only when the review is
 * published and no longer waits for its writer, i.e. the address is the shop's, the writer confirmed it, or the
 * operator let the text out. Otherwise the address may be anyone's and the words a stranger's.
 */
export function mayQuoteWriter(review: Pick<Review, 'published' | 'confirmToken'>): boolean {
  return review.published && review.confirmToken === null;
}

function render(services: Pick<Services, 'config'>, shop: Webshop, review: Review, kind: ReviewMailKind): RenderedMail {
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
