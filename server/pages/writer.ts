// The writer manages their own review through the edit link (/edit/{token}), besides changing it; routes.ts
// answers the pages, this module holds what the actions do:
// - GET /edit/{token}/delete asks for confirmation; POST deletes (the review store's soft delete: reviews.deleted);
// - POST /edit/{token}/renew, for an expired link: a new link by e-mail to the address the review was written
//   with (never one typed here), within the per-recipient limit; the old link stops working.
// The token in the address is the credential, as for the edit page; every action is a POST (mail scanners GET links).
import { queueMail, type OutboxKind, type OutboxMailOf } from '../mail/outbox-mail.js';
import { editMail } from '../mail/templates.js';
import type { Language } from '../languages.js';
import { newLinkSecret } from '../links.js';
import type { Review, ReviewPhoto } from '../reviews/model.js';
import { removedPhotos } from '../reviews/rules.js';
import { PHOTO_LIMITS } from '../photos/detect.js';
import type { Fields } from '../http/body.js';
import { currentAltField, currentRemoveField } from './components.js';
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
export async function deleteByWriter(services: Pick<Services, 'audit' | 'reviews'>, review: Review): Promise<boolean> {
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
 * Gives the review a new edit link in place of the expired `token` and queues the e-mail that carries it to the
 * address the review was written with (the outbox: the worker sends it, so a mail server that is down delays the
 * e-mail but fails no request). `limited`: the per-recipient limit of e-mails an anonymous request causes
 * (mail/recipient-limit-store.ts); `gone`: the review or its link changed meanwhile.
 */
export async function emailNewEditLink(
  services: Pick<Services, 'audit' | 'now' | 'outbox' | 'recipientLimit' | 'reviews' | 'scheduler'>,
  review: Review,
  token: string,
): Promise<'queued' | 'limited' | 'gone'> {
  const { reviews } = services;
  if (!review.email || !(await services.recipientLimit.take(review.email))) return 'limited';
  const renewed = services.now();
  if (!(await reviews.renewEditLink(review.id, token, { token: newLinkSecret(), sent: renewed }))) return 'gone';
  // Its own Message-ID: a copy of the first edit e-mail's would be dropped as a duplicate by mail servers.
  await queueMail(services, `review.${review.id}.edit.${renewed.getTime()}`, {
    kind: 'edit-link',
    reviewId: review.id,
    shopId: review.shopId,
    renewed,
  });
  await services.audit.record({
    shopId: review.shopId,
    actor: { kind: 'writer', id: `review:${review.id}` },
    action: 'review.edit_link_renewed',
    target: `review:${review.id}`,
  });
  return 'queued';
}

/**
 * The outbox's new-edit-link e-mails, when the drain gets to them: the review's current link, unless the review is
 * gone, renewed again since (that renewal's e-mail carries the link), or the link expired meanwhile.
 */
export function newEditLinkMailKind(
  services: Pick<Services, 'config' | 'now' | 'reviews' | 'webshops'>,
): OutboxKind<OutboxMailOf<'edit-link'>> {
  return {
    compose: async (queued) => {
      const review = await services.reviews.get(queued.reviewId);
      if (!review || review.deleted || !review.email || !review.editToken) return { drop: 'the review is gone' };
      if (review.editMailSent?.getTime() !== queued.renewed.getTime()) return { drop: 'renewed again since' };
      if (editLinkExpired(review, services.now())) return { drop: 'the link expired' };
      const shopName = (await services.webshops.get(review.shopId))?.name ?? '';
      const { config } = services;
      const mail = editMail({
        language: review.language,
        shopName,
        brandName: config.brandName,
        editUrl: `${config.baseUrl}/edit/${review.editToken}`,
      });
      return { fromName: shopName || config.brandName, to: review.email, ...mail };
    },
  };
}

/** The photos the writer sees on the edit page: those still on the review (a redacted or removed one is not). */
export const editablePhotos = (review: Pick<Review, 'photos'>): ReviewPhoto[] =>
  (review.photos ?? []).filter((p) => p.state !== 'removed' && p.state !== 'withheld');

/**
 * The review's photos after the edit form: the ticked ones removed (their files are then deleted by the photos'
 * write follower), descriptions as typed, the new uploads appended, waiting for the worker. `tooMany` when the photos
 * kept and added would be more than 5.
 */
export function editedPhotos(
  photos: readonly ReviewPhoto[],
  edit: { remove: ReadonlySet<string>; alts: ReadonlyMap<string, string>; added: readonly ReviewPhoto[] },
): { photos: ReviewPhoto[]; tooMany: boolean } {
  const editable = new Set(editablePhotos({ photos: [...photos] }).map((p) => p.id));
  const kept = [...editable].filter((id) => !edit.remove.has(id)).length;
  const after = photos.map((p) => {
    if (!editable.has(p.id)) return p;
    if (edit.remove.has(p.id)) return removedPhotos([p])[0]!;
    const alt = edit.alts.get(p.id);
    return alt === undefined || alt === p.alt ? p : { ...p, alt };
  });
  return { photos: [...after, ...edit.added], tooMany: kept + edit.added.length > PHOTO_LIMITS.perReview };
}

/** The edit form's fields for the photos the review has: which are ticked "Remove", and their descriptions. */
export function readPhotoEdit(
  fields: Fields,
  photos: readonly ReviewPhoto[],
): { remove: Set<string>; alts: Map<string, string> } {
  const remove = new Set<string>();
  const alts = new Map<string, string>();
  for (const { id } of photos) {
    if (fields[currentRemoveField(id)] === '1') remove.add(id);
    const alt = fields[currentAltField(id)];
    if (typeof alt === 'string') alts.set(id, alt.trim().replace(/\s+/g, ' '));
  }
  return { remove, alts };
}
