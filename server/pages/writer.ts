// The writer manages their own review through the edit link (/edit/{token}), besides changing it; routes.ts
// answers the pages, this module holds what the actions do:
// - GET /edit/{token}/delete asks for confirmation; POST deletes (the review store's soft delete: reviews.deleted);
// - POST /edit/{token}/renew, for an expired link: a new link by e-mail to the address the review was written
//   with (never one typed here), within the per-recipient limit; the old link stops working.
// The token in the address is the credential, as for the edit page; every action is a POST (mail scanners GET links).
import { editMail } from '../mail/templates.js';
import type { Language } from '../languages.js';
import { newLinkSecret } from '../links.js';
import type { Review } from '../reviews/model.js';
import type { Services } from '../services.js';
import { editLinkSince, EDIT_LINK_DAYS, linkExpired } from './expiry.js';
import type { PageFrame } from './views.js';
import { WRITER_STRINGS } from './writer-strings.js';
import { expiredEditPage } from './writer-views.js';

/** The page an expired edit link answers (routes.ts): it says so and offers a new link. */
export function expiredEditLinkPage(frame: PageFrame, shopName: string, token: string): string {
  return expiredEditPage(
    frame,
    WRITER_STRINGS[frame.lang],
    frame.t.editExpiredTitle,
    frame.t.editExpiredBody(shopName, EDIT_LINK_DAYS),
    token,
  );
}

/** The edit page's link to deleting the review. */
export const deleteLinkFor = (lang: Language, token: string) => ({
  href: `/edit/${token}/delete`,
  text: WRITER_STRINGS[lang].deleteLink,
});

export const editLinkExpired = (review: Review, now: Date) => linkExpired(editLinkSince(review), EDIT_LINK_DAYS, now);

/** Deletes the review at its writer's request (reviews.deleted follows), in the audit trail. False: already gone. */
export async function deleteByWriter(services: Services, review: Review): Promise<boolean> {
  if (!(await services.reviews.softDelete(review.id))) return false;
  await services.audit.record({
    shopId: review.shopId,
    actor: { kind: 'writer', id: `review:${review.id}` },
    action: 'review.deleted_by_writer',
    target: `review:${review.id}`,
  });
  return true;
}

/**
 * E-mails a new edit link to the address the review was written with, in place of the expired `token`.
 * `limited`: the per-recipient limit of e-mails an anonymous request causes (mail/recipient-limit-store.ts);
 * `gone`: the review or its link changed meanwhile; `failed`: not sent, the old link is put back.
 */
export async function emailNewEditLink(
  services: Services,
  review: Review,
  token: string,
  shopName: string,
): Promise<'sent' | 'limited' | 'gone' | 'failed'> {
  const { reviews, config } = services;
  if (!review.email || !(await services.recipientLimit.take(review.email))) return 'limited';
  const sent = services.now();
  const fresh = newLinkSecret();
  if (!(await reviews.renewEditLink(review.id, token, { token: fresh, sent }))) return 'gone';
  const mail = editMail({
    language: review.language,
    shopName,
    brandName: config.brandName,
    editUrl: `${config.baseUrl}/edit/${fresh}`,
  });
  try {
    // Its own Message-ID: a copy of the first edit e-mail's would be dropped as a duplicate by mail servers.
    const messageId = `<review.${review.id}.edit.${sent.getTime()}@${services.mailer.domain.toLowerCase()}>`;
    await services.mailer.send({ fromName: shopName, to: review.email, ...mail, messageId });
  } catch (err) {
    // The old (expired) link is put back, so the writer can ask again from the same page.
    await reviews.renewEditLink(review.id, fresh, { token, sent: review.editMailSent });
    services.log.warn({ err, reviewId: review.id }, 'new edit link could not be e-mailed');
    return 'failed';
  }
  await services.audit.record({
    shopId: review.shopId,
    actor: { kind: 'writer', id: `review:${review.id}` },
    action: 'review.edit_link_renewed',
    target: `review:${review.id}`,
  });
  return 'sent';
}
