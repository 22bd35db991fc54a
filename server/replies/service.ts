// The shop's reply to a review, one rule for every way a shop replies: the classic POST /api/1.0/review_replies.json
// and the dashboard (which also edits and removes a reply). Any review of the shop that is not deleted can be
// answered, quarantined ones included; another shop's review is as unknown as a missing one. A reply asking to
// notify the writer has its e-mail queued by the review write itself (mail/review-queue.ts), for at once or, within
// a day of the review's last reply e-mail, for that day's end; the mail job is woken.
import type { Review } from '../reviews/model.js';
import type { Services } from '../services.js';
import { JOB } from '../jobs/names.js';
import { nextReply } from './reply.js';

type ReplyServices = Pick<Services, 'reviews' | 'scheduler' | 'now'>;

/** The shop's own live review, or null. */
async function ownReview(services: ReplyServices, shopId: number, reviewId: number): Promise<Review | null> {
  const review = await services.reviews.get(reviewId);
  return review && !review.deleted && review.shopId === shopId ? review : null;
}

/** Adds or replaces the reply (a new revision); null when the shop has no such review (or it was deleted meanwhile). */
export async function replyToReview(
  services: ReplyServices,
  shopId: number,
  reviewId: number,
  request: { reply: string; notify?: boolean },
): Promise<Review | null> {
  if (!(await ownReview(services, shopId, reviewId))) return null;
  // From the review as written: two replies at once each count their own revision.
  const updated = await services.reviews.update(reviewId, (current) => ({
    reply: nextReply(current.reply, { review_id: reviewId, ...request }, services.now()),
  }));
  if (updated?.reply?.notify) services.scheduler.trigger(JOB.reviewMail);
  return updated;
}

/**
 * Corrects the reply's text. A notification still waiting goes out with the corrected text; one already sent is not
 * sent again (a correction is no new answer). 'no_reply' when the review has none to edit.
 */
export async function editReply(
  services: ReplyServices,
  shopId: number,
  reviewId: number,
  text: string,
): Promise<Review | null | 'no_reply'> {
  const review = await ownReview(services, shopId, reviewId);
  if (!review) return null;
  if (!review.reply) return 'no_reply';
  // nextReply keeps a notification still waiting, so the edit adds none of its own.
  const updated = await services.reviews.update(reviewId, (current) =>
    current.reply ? { reply: nextReply(current.reply, { review_id: reviewId, reply: text }, services.now()) } : {},
  );
  if (updated && !updated.reply) return 'no_reply';
  if (updated?.reply?.notify) services.scheduler.trigger(JOB.reviewMail);
  return updated;
}

/** Removes the reply (a notification not yet sent is dropped with it); null when the shop has no such review. */
export async function removeReply(services: ReplyServices, shopId: number, reviewId: number): Promise<Review | null> {
  const review = await ownReview(services, shopId, reviewId);
  if (!review) return null;
  if (!review.reply) return review;
  return services.reviews.update(reviewId, { reply: null });
}
