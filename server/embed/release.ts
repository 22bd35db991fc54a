// Publishing a review that waited for confirmation, and the trust each way of publishing earns (docs/decisions.md,
// "Consent pop-up trust model"):
// - the writer's e-mailed link (/confirm/{token}) proves their address, not the order: the review is published as
//   e-mail confirmed, never as a verified customer's;
// - the shop's own Add invitation for the order with the same address proves the order (what the shop's signature
//   would have proved): an unsigned pop-up review under that address becomes a verified customer's, whether it
//   still waited or was confirmed by e-mail already.
// Reviews nobody confirms are removed CONFIRMATION_DAYS after they were written.
import type { Review } from '../reviews/store.js';
import type { Services } from '../services.js';
import { addDays } from '../time.js';
import { CONFIRMATION_DAYS, type PendingConfirmation } from './confirmations.js';
import { awaitsConfirmation, editMailDueOnRelease, sameEmail } from './rules.js';
import { newSecret } from './tokens.js';

/** The mailer's job for confirmation and edit e-mails. */
export const MAIL_JOB = 'mail.reviews';
/** The job that removes reviews whose confirmation time ran out. */
export const EXPIRY_JOB = 'embed.confirmations.expire';
const EXPIRY_BATCH = 500;

/** What a waiting review needs to remember of the consent it was written under (nothing, for a form review). */
export type WaitingConsent = Pick<PendingConfirmation, 'receipt' | 'consentCreated' | 'inviteDelay'>;
export const NO_CONSENT: WaitingConsent = { receipt: null, consentCreated: null, inviteDelay: 0 };

/** The queue entry of a review that waits for its writer's confirmation: it expires if it never gets one. */
export function confirmationOf(review: Pick<Review, 'id' | 'shopId' | 'created'>, consent: WaitingConsent): PendingConfirmation {
  return { _id: review.id, shopId: review.shopId, ...consent, expires: addDays(review.created, CONFIRMATION_DAYS) };
}

export async function awaitConfirmation(services: Services, review: Review, consent: WaitingConsent): Promise<void> {
  await services.confirmations.add(confirmationOf(review, consent));
}

/**
 * The writer confirmed by the e-mailed link: the review is published as e-mail confirmed, not verified. A pop-up
 * review gets its edit link, due when it would have been due for a signed order (or at once when that has passed).
 */
export async function releaseReview(services: Services, review: Review): Promise<Review | null> {
  if (!awaitsConfirmation(review)) return null;
  const waiting = await services.confirmations.get(review.id);
  await services.confirmations.remove(review.id);
  const confirmed = { quarantine: false, confirmToken: null, emailConfirmed: true };
  if (review.source !== 'popup') return services.reviews.update(review.id, confirmed);
  const released = await services.reviews.update(review.id, { ...confirmed, ...editLink(services, review, waiting) });
  services.scheduler.trigger(MAIL_JOB);
  return released;
}

/**
 * The shop's Add invitation for an order arrived: the unsigned pop-up reviews of that order (`reviews`) written
 * under the invitation's address become a verified customer's. Returns how many did.
 */
export async function releaseOnInvitation(services: Services, reviews: readonly Review[], email: string): Promise<number> {
  let verified = 0;
  for (const review of reviews) {
    if (review.source !== 'popup' || review.verified || review.deleted || !sameEmail(review.email, email)) continue;
    let changed: Review | null = null;
    if (awaitsConfirmation(review)) {
      const waiting = await services.confirmations.get(review.id);
      await services.confirmations.remove(review.id);
      changed = await services.reviews.update(review.id, {
        quarantine: false,
        verified: true,
        confirmToken: null,
        ...editLink(services, review, waiting),
      });
      services.scheduler.trigger(MAIL_JOB);
    } else if (review.emailConfirmed) {
      changed = await services.reviews.update(review.id, { verified: true });
    }
    if (changed) verified++;
  }
  return verified;
}

function editLink(services: Services, review: Review, waiting: PendingConfirmation | null) {
  return {
    editToken: review.editToken ?? newSecret(),
    editMailDue: editMailDueOnRelease(waiting?.consentCreated ?? null, waiting?.inviteDelay ?? 0, services.now()),
  };
}

/**
 * Removes the reviews whose confirmation time ran out at `now` (injectable for tests), in batches, and logs how
 * many. Their unsigned receipts count again as receipts without a review, which the shop's cap bounds.
 */
export async function expireUnconfirmed(services: Services, now: Date = services.now()): Promise<number> {
  let removed = 0;
  let dropped = 0;
  for (;;) {
    const due = await services.confirmations.due(now, EXPIRY_BATCH);
    if (!due.length) break;
    removed += await services.reviews.removeUnconfirmed(due.map((d) => d._id));
    dropped += await services.consents.detachReviews(due.flatMap((d) => (d.receipt ? [{ shopId: d.shopId, receipt: d.receipt }] : [])));
    await services.confirmations.removeMany(due.map((d) => d._id));
    if (due.length < EXPIRY_BATCH) break;
  }
  if (removed > 0) services.log.info({ removed, days: CONFIRMATION_DAYS }, 'unconfirmed reviews expired');
  if (dropped > 0) services.log.info({ dropped }, 'oldest unsigned consent receipts dropped (per-shop cap)');
  return removed;
}
