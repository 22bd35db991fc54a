// How long the links in our e-mails work. A review link is a credential that sits in a mailbox: after half a year
// nobody writes an honest review of the order any more, and a link found later in an old or forwarded e-mail should
// not still publish one. An edit link changes a published review: after three months it is more likely found by
// someone else than used by its writer. Unsubscribe links never expire: they only ever stop mail.
import type { Review } from '../reviews/model.js';

export const REVIEW_LINK_DAYS = 180;
export const EDIT_LINK_DAYS = 90;

const DAY_MS = 86_400_000;

/** Whether a link that started to work at `since` has expired at `now` (it works for `days` days, to the ms). */
export function linkExpired(since: Date, days: number, now: Date): boolean {
  return now.getTime() >= since.getTime() + days * DAY_MS;
}

/**
 * A review link works from when its invitation was sent. Without a record of sending, from when it was due: never
 * later than the sending, so such a link expires no later than it would have.
 */
export function reviewLinkSince(scheduled: Date, sent: Date | null): Date {
  return sent ?? scheduled;
}

/**
 * An edit link works from when the review was written, or from the e-mail that brought the link when that came
 * later (a pop-up review's edit e-mail waits for the order's invitation delay, up to a year).
 */
export function editLinkSince(review: Pick<Review, 'created' | 'editMailSent'>): Date {
  const mailed = review.editMailSent;
  return mailed && mailed > review.created ? mailed : review.created;
}
