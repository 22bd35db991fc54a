// GDPR erasure of one customer (an e-mail address), in one shop or in all of them. Each store erases what it holds;
// this service only gathers what they need to know first: the names the customer gave (in reviews, invitations,
// the pop-up) and their orders, since some records are tied to the order rather than the address, and the texts of
// their reviews are cleaned of both name and address.
//
// Reviews stay (the shop's score must not change behind its back) but are anonymised through the review write path,
// so caches refresh and subscribers get reviews.updated. Everything else that exists for the customer goes:
// invitations with their sending records, consent receipts, pop-up tokens, e-mail attempts, outbox messages and
// finished webhook deliveries; pending webhook deliveries are rewritten to the anonymised review (or, for a review
// deleted in the meantime, to the blank one that remains).
//
// Erasing in every shop also removes sending records that merely quote the address (an SMTP error) and outbox
// messages to it; erasing in one shop only touches what belongs to that shop's invitations and reviews.
// Most steps filter on something other than `_id`, which FerretDB answers with a scan: acceptable for an operator
// action that is rare.
import { sameAddress } from '../email.js';
import type { Language } from '../languages.js';
import type { ShopOrder } from '../consents/rules.js';
import { JOB } from '../jobs/names.js';
import { messageIdFor, type MailPurpose } from '../mail/message-id.js';
import { deleteOutboxMessages } from '../mail/outbox.js';
import { forgetReviewMails } from '../mail/reviews.js';
import { outboxDir } from '../mail/transport.js';
import type { Review, ReviewChanges } from '../reviews/model.js';
import type { Services } from '../services.js';
import { redactor, type Redact } from './redact.js';
import { removedPhotos } from '../reviews/rules.js';

/** What an erased reviewer is called, in the review's language (an empty name reads as a broken page). */
export const ANONYMOUS: Record<Language, string> = {
  nl: 'Anoniem',
  en: 'Anonymous',
  de: 'Anonym',
  fr: 'Anonyme',
  es: 'Anónimo',
  it: 'Anonimo',
  hr: 'Anonimno',
};

const ANONYMOUS_NAMES = new Set(Object.values(ANONYMOUS));

interface ErasureRequest {
  /** Normalised (see normalizeEmail); matched whatever its case. */
  email: string;
  /** One shop, or every shop when undefined. */
  shopId?: number;
}

/** The counts the operator API answers with. */
export interface ErasureReport {
  reviews_anonymised: number;
  invitations_deleted: number;
  consents_deleted: number;
  popup_tokens_deleted: number;
  /** Finished deliveries of the customer's reviews (their bodies had the name and address). */
  webhook_deliveries_deleted: number;
  /** Pending deliveries that now carry the anonymised review. */
  webhook_deliveries_rewritten: number;
  /** Invitation queue entries and outcomes, and review e-mail attempts. */
  mail_records_deleted: number;
  /** Messages in the development outbox (DATA_DIR/outbox); 0 when e-mail goes to an SMTP server. */
  outbox_messages_deleted: number;
  /** Reports the customer made, removal notices to them, and report texts about their reviews (blanked). */
  moderation_records_deleted: number;
}

/**
 * What a review keeps once its writer is erased: scores, dates, country and product ratings. The name becomes
 * "Anonymous" in the review's language; address, order number and the writer's links go; the name and address are
 * redacted from the comment, the product texts and the shop's reply (which the customer is no longer told about);
 * the photos go.
 */
function anonymised(review: Review, redact: Redact): ReviewChanges {
  return {
    name: ANONYMOUS[review.language] ?? ANONYMOUS.en,
    email: '',
    order: '',
    comment: review.comment === null ? null : redact(review.comment),
    products: review.products.map((p) => ({ ...p, content: redact(p.content) })),
    reply: review.reply && { ...review.reply, text: redact(review.reply.text), notify: false },
    editToken: null,
    editMailDue: null,
    confirmToken: null,
    // Bulk imports keep the title and the source's order number too.
    ...(review.title ? { title: redact(review.title) } : {}),
    ...(review.source_order ? { source_order: '' } : {}),
    // …and the photo URLs its file named: not fetched any more (imports/photo-import.ts), and no trace of them kept.
    ...(review.photo_urls?.length ? { photo_urls: [] } : {}),
    // Photos are the writer's personal data (faces, homes): taken off, their files deleted by the photo worker.
    ...(review.photos?.length ? { photos: removedPhotos(review.photos) } : {}),
  };
}

/** The distinct, non-empty orders among these records. */
function ordersOf(records: readonly ShopOrder[]): ShopOrder[] {
  const seen = new Map<string, ShopOrder>();
  for (const { shopId, order } of records) if (order) seen.set(`${shopId}\n${order}`, { shopId, order });
  return [...seen.values()];
}

/** The Message-IDs of every e-mail that can have been sent about these reviews (see messageIdFor). */
function reviewMessageIds(reviews: readonly Review[], domain: string): string[] {
  return reviews.flatMap((review) => {
    const replies = Array.from(
      { length: review.reply?.revision ?? 0 },
      (_, i): MailPurpose => ({
        kind: 'reply',
        reviewId: review.id,
        revision: i + 1,
      }),
    );
    const purposes: MailPurpose[] = [
      { kind: 'edit', reviewId: review.id },
      { kind: 'confirm', reviewId: review.id },
      ...replies,
    ];
    return purposes.map((p) => messageIdFor(p, domain));
  });
}

export async function eraseCustomer(
  services: Pick<
    Services,
    | 'config'
    | 'consents'
    | 'helpful'
    | 'invitations'
    | 'mailer'
    | 'moderation'
    | 'outbox'
    | 'photos'
    | 'popupTokens'
    | 'productReviews'
    | 'reviewEvents'
    | 'reviewMails'
    | 'reviews'
    | 'scheduler'
    | 'webhookDeliveries'
  >,
  { email, shopId }: ErasureRequest,
): Promise<ErasureReport> {
  const everywhere = shopId === undefined;
  const [reviews, invitations, consents, tokens] = await Promise.all([
    services.reviews.findByAddress(email, shopId),
    services.invitations.findByAddress(email, shopId),
    services.consents.findByAddress(email, shopId),
    services.popupTokens.findByAddress(email, shopId),
  ]);
  const names = [
    ...reviews.map((r) => r.name),
    ...invitations.map((i) => i.customer_name),
    ...consents.map((c) => c.firstName),
    ...tokens.map((t) => t.firstName),
  ].filter((name) => !ANONYMOUS_NAMES.has(name));
  const redact = redactor(names, [email]);
  const orders = ordersOf([...reviews, ...invitations, ...consents, ...tokens]);

  // Reviews first: once they have no address, the mail drain sends nothing more about them.
  const written: Review[] = [];
  for (const review of reviews) {
    const after = await services.reviews.update(review.id, (before) => anonymised(before, redact));
    if (after) written.push(after);
  }
  const reviewIds = reviews.map((r) => r.id);
  // Reviews deleted since their events were recorded have no address any more, but their deliveries still quote it.
  const quoted = (await services.webhookDeliveries.reviewsQuoting(email, shopId)).filter(
    (id) => !reviewIds.includes(id),
  );
  const deleted = (await Promise.all(quoted.map((id) => services.reviews.get(id)))).filter(
    (r): r is Review => r !== null,
  );
  // Rewritten before the finished ones are deleted: one that finishes in between is then deleted, not missed.
  // Votes are not the customer's data: the bodies keep the count ratings.json shows.
  const helpful = new Map<number, number>();
  for (const shop of new Set([...written, ...deleted].map((r) => r.shopId))) {
    for (const [id, n] of await services.helpful.countsOf(shop)) helpful.set(id, n);
  }
  const rewritten = await services.webhookDeliveries.rewritePending([...written, ...deleted], helpful);
  // Events not yet dispatched carry the review as it was written: they get it as it is now.
  await services.reviewEvents.rewrite([...written, ...deleted]);
  const deliveriesDeleted = await services.webhookDeliveries.forgetReviews([...reviewIds, ...quoted]);

  const invited = await services.invitations.erase(email, shopId, invitations);
  const reviewMails = await forgetReviewMails(services, reviewIds, everywhere ? email : undefined);
  const consentsDeleted = await services.consents.erase(email, shopId, orders);
  const tokensDeleted = await services.popupTokens.erase(email, shopId, orders);
  // Photos a removal withheld with the customer's review (deleted, so not among `reviews`): they go for good
  // before the texts kept for a complaint do, and their files with them.
  for (const id of await services.moderation.withheldReviewsOf(email, shopId)) {
    await services.reviews.removeWithheldPhotos(id);
  }
  const moderationDeleted =
    (await services.moderation.erase(email, shopId, reviewIds)) +
    // Decision notices still queued in the outbox keep the address the removed review (or the report) had.
    (await services.outbox.forget({ kind: 'removal', to: sameAddress(email), ...(everywhere ? {} : { shopId }) })) +
    (await services.outbox.forget({ kind: 'decision', to: sameAddress(email), ...(everywhere ? {} : { shopId }) }));
  await services.reviews.forgetOrders(orders);
  // Imported reviews of products only (kept apart from the shop's reviews): name, address and words blanked.
  // Their photos (fetched from the file's URLs) are the writer's data too: files deleted by the photo worker.
  const productReviews = await services.productReviews.erase(email, shopId, async (ids) => {
    await services.photos.addTasks('delete', ids);
    services.scheduler.trigger(JOB.photos);
  });

  let outboxDeleted = 0;
  if (services.mailer.kind === 'outbox') {
    const { domain } = services.mailer;
    const messageIds = new Set([
      ...invitations.map((i) => messageIdFor({ kind: 'invitation', invitationId: i._id.toHexString() }, domain)),
      ...reviewMessageIds(reviews, domain),
    ]);
    outboxDeleted = await deleteOutboxMessages(outboxDir(services.config), messageIds, everywhere ? email : undefined);
  }

  return {
    reviews_anonymised: written.length + productReviews,
    invitations_deleted: invited.invitations,
    consents_deleted: consentsDeleted,
    popup_tokens_deleted: tokensDeleted,
    webhook_deliveries_deleted: deliveriesDeleted,
    webhook_deliveries_rewritten: rewritten,
    mail_records_deleted: invited.mailRecords + reviewMails,
    outbox_messages_deleted: outboxDeleted,
    moderation_records_deleted: moderationDeleted,
  };
}
