// Publishing a review that waited for confirmation: by its writer (the /confirm/{token} link) or, for an unsigned
// pop-up review, by the shop's own Add invitation for that order with the same e-mail address (the shop knows the
// order, which is what a signature would have proved).
import type { Review } from '../reviews/store.js';
import type { Services } from '../services.js';
import { awaitsConfirmation, editMailDueOnRelease, sameEmail } from './rules.js';
import { newSecret } from './tokens.js';

/** The mailer's job for confirmation and edit e-mails. */
export const MAIL_JOB = 'mail.reviews';

/**
 * Publishes a waiting review. A pop-up review is then a verified customer's and gets its edit e-mail after the
 * order's invite delay; a form review (serviceAddReview) stays unverified: confirming an address proves no order.
 */
export async function releaseReview(services: Services, review: Review): Promise<Review | null> {
  if (!awaitsConfirmation(review)) return null;
  if (review.source !== 'popup') {
    return services.reviews.update(review.id, { quarantine: false, confirmToken: null });
  }
  const consent = review.order ? await services.consents.get(review.shopId, review.order) : null;
  const released = await services.reviews.update(review.id, {
    quarantine: false,
    verified: true,
    confirmToken: null,
    editToken: review.editToken ?? newSecret(),
    editMailDue: editMailDueOnRelease(consent?.created ?? null, consent?.inviteDelay ?? 0, services.now()),
  });
  services.scheduler.trigger(MAIL_JOB);
  return released;
}

/** Add invitation arrived for the order: release the unsigned pop-up reviews of that order written under `email`. */
export async function releaseOnInvitation(services: Services, shopId: number, order: string, email: string): Promise<number> {
  if (!order) return 0;
  const waiting = await services.reviews.collection
    .find({ shopId, order, source: 'popup', quarantine: true, deleted: false }, { projection: { _id: 0 } })
    .toArray();
  let released = 0;
  for (const review of waiting) {
    if (sameEmail(review.email, email) && (await releaseReview(services, review))) released++;
  }
  return released;
}
