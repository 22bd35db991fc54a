// Review publication, the service: writing the reviews of the pop-up and the form (and noting where a shopper's
// review came from, for the signals), publishing a review that waited for confirmation, and the trust each way of
// publishing earns (docs/decisions.md, "Consent pop-up trust model"):
// - the writer's e-mailed link (/confirm/{token}) proves their address, not the order: the review is published as
//   e-mail confirmed, never as a verified customer's;
// - the shop's own Add invitation for the order with the same address proves the order (what the shop's signature
//   would have proved): an unsigned pop-up review under that address becomes a verified customer's, whether it
//   still waited or was confirmed by e-mail already.
// Reviews nobody confirms are removed CONFIRMATION_DAYS after they were written.
import type { InvitationOrigin as Invitation, NewReview, PopupToken, Review } from './model.js';
import type { NewConsent } from '../consents/model.js';
import type { Logger } from '../log.js';
import type { Services } from '../services.js';
import { addDays, formatDate } from '../time.js';
import { currentMonth } from './experience.js';
import type { PendingConfirmation } from './confirmation-queue.js';
import {
  awaitsConfirmation,
  CONFIRMATION_DAYS,
  editMailDueOnRelease,
  popupTrust,
  sameEmail,
  type PopupTrust,
} from './rules.js';
import { newLinkSecret } from '../links.js';
import { JOB } from '../jobs/names.js';
const EXPIRY_BATCH = 500;

/** What a waiting review needs to remember of the consent it was written under (nothing, for a form review). */
type WaitingConsent = Pick<PendingConfirmation, 'receipt' | 'consentCreated' | 'inviteDelay'>;
const NO_CONSENT: WaitingConsent = { receipt: null, consentCreated: null, inviteDelay: 0 };

/** The queue entry of a review that waits for its writer's confirmation: it expires if it never gets one. */
function confirmationOf(
  review: Pick<Review, 'id' | 'shopId' | 'created'>,
  consent: WaitingConsent,
): PendingConfirmation {
  return { _id: review.id, shopId: review.shopId, ...consent, expires: addDays(review.created, CONFIRMATION_DAYS) };
}

async function awaitConfirmation(
  services: Pick<Services, 'confirmations'>,
  review: Review,
  consent: WaitingConsent,
): Promise<void> {
  await services.confirmations.add(confirmationOf(review, consent));
}

/**
 * The shopper's choice in the pop-up for an order: recorded as a consent receipt; "write now" returns the review
 * token for the review form. A signed choice stands once made and supersedes unsigned ones, whose review tokens
 * stop working; unsigned choices stand per address (consents/store.ts). Not recorded: another choice stands.
 */
export async function recordPopupChoice(
  services: Pick<Services, 'consents' | 'log' | 'popupTokens'>,
  input: NewConsent,
): Promise<{ recorded: false } | { recorded: true; reviewToken?: string }> {
  const { consents, popupTokens } = services;
  if (input.signed && (await consents.get(input.shopId, input.order))) return { recorded: false };
  const { receipt, recorded, dropped } = await consents.recordChoice(input);
  if (dropped > 0)
    services.log.info({ shopId: input.shopId, dropped }, 'oldest unsigned consent receipts dropped (per-shop cap)');
  if (!recorded) return { recorded: false };
  if (input.signed && (await consents.forOrder(input.shopId, input.order)).unsigned > 0) {
    await popupTokens.revokeUnsigned(input.shopId, input.order);
  }
  if (input.choice !== 'write_now') return { recorded: true };
  const reviewToken = await popupTokens.issue({
    shopId: input.shopId,
    order: input.order,
    email: receipt.email,
    firstName: input.firstName,
    inviteDelay: input.inviteDelay,
    signed: input.signed,
    language: input.language,
    consentCreated: receipt.created,
  });
  return { recorded: true, reviewToken };
}

/** What the writer typed in the pop-up or the form. */
type WrittenReview = Pick<NewReview, 'name' | 'rating' | 'ratings' | 'comment' | 'country' | 'photos'>;

/**
 * The review written in the pop-up with a claimed review token. A signed order's review is published at once; an
 * unsigned one waits for its writer's confirmation, and its consent receipt stops counting towards the shop's cap.
 */
export async function writePopupReview(
  services: Pick<Services, 'confirmations' | 'consents' | 'reviews' | 'scheduler'>,
  token: PopupToken,
  written: WrittenReview,
  email: string,
): Promise<{ review: Review; status: PopupTrust['status'] }> {
  const trust = popupTrust(token.signed, token.consentCreated, token.inviteDelay);
  const published = trust.status === 'published';
  const review = await services.reviews.create(token.shopId, {
    ...written,
    email,
    language: token.language,
    order: token.order,
    // The order data arrived with the pop-up's consent: the order's date as the service knows it.
    experience_date: formatDate(token.consentCreated),
    source: 'popup',
    quarantine: trust.quarantine,
    verified: trust.verified,
    editToken: published ? newLinkSecret() : null,
    editMailDue: trust.editMailDue,
    confirmToken: published ? null : newLinkSecret(),
  });
  if (!published) {
    const receipt = await services.consents.attachReview(token, review.id);
    await awaitConfirmation(services, review, {
      receipt,
      consentCreated: token.consentCreated,
      inviteDelay: token.inviteDelay,
    });
  }
  services.scheduler.trigger(JOB.reviewMail);
  return { review, status: trust.status };
}

/**
 * The review written through an invitation's link: a verified customer's, published at once. The link is claimed
 * before the write, so a double submit writes one review; null when the link was used already.
 */
export async function writeInvitationReview(
  services: Pick<Services, 'invitations' | 'now' | 'reviews'>,
  invitation: Invitation,
  written: WrittenReview & { products: { rating: number | null; content: string }[] },
): Promise<Review | null> {
  if (!(await services.invitations.useLink(invitation.token, services.now()))) return null;
  return services.reviews.create(invitation.shopId, {
    ...written,
    email: invitation.email,
    language: invitation.language,
    order: invitation.order,
    // The shop sent the invitation for the order: the order's date as the service knows it.
    experience_date: formatDate(invitation.created),
    source: 'invitation',
    verified: true,
    incentivised: invitation.incentivised ?? false,
    products: invitation.products.map((p, i) => ({
      ...p,
      rating: written.products[i]?.rating ?? null,
      content: written.products[i]?.content ?? '',
    })),
    editToken: newLinkSecret(),
  });
}

/** The review of the serviceAddReview form: anyone may post it, so it waits for its writer's confirmation. */
export async function writeFormReview(
  services: Pick<Services, 'confirmations' | 'now' | 'reviews' | 'scheduler'>,
  shopId: number,
  written: WrittenReview & Pick<NewReview, 'email' | 'language'> & { experienceMonth?: string },
): Promise<Review> {
  const { experienceMonth, ...rest } = written;
  const review = await services.reviews.create(shopId, {
    ...rest,
    // No order: the writer names the month; an older embed that asks for none dates it to the month of writing.
    experience_date: experienceMonth ?? currentMonth(services.now()),
    source: 'form',
    quarantine: true,
    verified: false,
    confirmToken: newLinkSecret(),
  });
  await awaitConfirmation(services, review, NO_CONSENT);
  services.scheduler.trigger(JOB.reviewMail);
  return review;
}

/**
 * What noting a shopper's review for the fake-review signals takes: the signals' `noteSubmission` (signals/store.ts),
 * declared here rather than imported, since the signals read the reviews' model.
 */
export interface SubmissionNoteDeps {
  signals: {
    noteSubmission(review: Pick<Review, 'id' | 'shopId'>, ip: string, userAgent: string | undefined): Promise<void>;
  };
  log: Pick<Logger, 'warn'>;
}

/**
 * After a shopper's review is written (pop-up, form, invitation link): notes the network and browser it came from,
 * for the signals' check of many reviews from one network. The review is written already, so a note that cannot
 * be queued is logged and never turns the writer's answer into an error.
 */
export async function noteNetworkSignal(
  deps: SubmissionNoteDeps,
  review: Pick<Review, 'id' | 'shopId'>,
  ip: string,
  userAgent: string | undefined,
): Promise<void> {
  await deps.signals
    .noteSubmission(review, ip, userAgent)
    .catch((err: unknown) => deps.log.warn({ err, review: review.id }, 'signals: network note not queued'));
}

/** Start-up backfill: reviews that waited before their queue existed join it (a scan of the reviews, run once). */
export async function queueWaitingReviews(services: Pick<Services, 'confirmations' | 'reviews'>): Promise<number> {
  const waiting = await services.reviews.awaitingConfirmation();
  await services.confirmations.addMany(waiting.map((review) => confirmationOf(review, NO_CONSENT)));
  return waiting.length;
}

/**
 * The writer confirmed by the e-mailed link: the review is published as e-mail confirmed, not verified. A pop-up
 * review gets its edit link, due when it would have been due for a signed order (or at once when that has passed).
 */
export async function releaseReview(
  services: Pick<Services, 'confirmations' | 'now' | 'reviews' | 'scheduler'>,
  review: Review,
): Promise<Review | null> {
  if (!awaitsConfirmation(review)) return null;
  const waiting = await services.confirmations.get(review.id);
  await services.confirmations.remove(review.id);
  const confirmed = { quarantine: false, confirmToken: null, emailConfirmed: true };
  if (review.source !== 'popup') return services.reviews.update(review.id, confirmed);
  const released = await services.reviews.update(review.id, { ...confirmed, ...editLink(services, review, waiting) });
  services.scheduler.trigger(JOB.reviewMail);
  return released;
}

/** Publication as the invitation intake needs it, injected through Services (app.ts builds it). */
export interface ReviewRelease {
  /** See releaseOnInvitation. */
  onInvitation(reviews: readonly Review[], email: string): Promise<number>;
}

/**
 * The shop's Add invitation for an order arrived: the unsigned pop-up reviews of that order (`reviews`) written
 * under the invitation's address become a verified customer's. Returns how many did.
 */
export async function releaseOnInvitation(
  services: Pick<Services, 'confirmations' | 'now' | 'reviews' | 'scheduler'>,
  reviews: readonly Review[],
  email: string,
): Promise<number> {
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
      services.scheduler.trigger(JOB.reviewMail);
    } else if (review.emailConfirmed) {
      changed = await services.reviews.update(review.id, { verified: true });
    }
    if (changed) verified++;
  }
  return verified;
}

function editLink(services: Pick<Services, 'now'>, review: Review, waiting: PendingConfirmation | null) {
  return {
    editToken: review.editToken ?? newLinkSecret(),
    editMailDue: editMailDueOnRelease(waiting?.consentCreated ?? null, waiting?.inviteDelay ?? 0, services.now()),
  };
}

/**
 * Removes the reviews whose confirmation time ran out at `now` (injectable for tests), in batches, and logs how
 * many. Their unsigned receipts count again as receipts without a review, which the shop's cap bounds.
 */
export async function expireUnconfirmed(
  services: Pick<Services, 'confirmations' | 'consents' | 'log' | 'now' | 'reviews'>,
  now: Date = services.now(),
): Promise<number> {
  let removed = 0;
  let dropped = 0;
  for (;;) {
    const due = await services.confirmations.due(now, EXPIRY_BATCH);
    if (!due.length) break;
    removed += await services.reviews.removeUnconfirmed(due.map((d) => d._id));
    dropped += await services.consents.detachReviews(
      due.flatMap((d) => (d.receipt ? [{ shopId: d.shopId, receipt: d.receipt }] : [])),
    );
    await services.confirmations.removeMany(due.map((d) => d._id));
    if (due.length < EXPIRY_BATCH) break;
  }
  if (removed > 0) services.log.info({ removed, days: CONFIRMATION_DAYS }, 'unconfirmed reviews expired');
  if (dropped > 0) services.log.info({ dropped }, 'oldest unsigned consent receipts dropped (per-shop cap)');
  return removed;
}
