// What the shopper pages (routes.ts) read and write of other features' data: the invitation or review a link names
// with its shop's name, whether a review link has expired, the writer's edit, one published review. routes.ts
// parses and answers; each function here takes the few methods it calls (docs/architecture.md).
import type { ObjectId, WithId } from 'mongodb';
import type { Invitation } from '../invitations/model.js';
import { LINK_SECRET_FORMAT } from '../links.js';
import type { Review, ReviewChanges } from '../reviews/model.js';
import type { Webshop } from '../webshops/model.js';
import { findWebshop, type ShopFinder } from '../webshops/service.js';
import { linkExpired, REVIEW_LINK_DAYS, reviewLinkSince } from './expiry.js';

/** The methods the pages call, of the invitations' store and queue, the reviews' store and the shops'. */
export interface PageDeps extends ShopFinder<Webshop> {
  now: () => Date;
  invitations: {
    byLinkToken(token: string): Promise<WithId<Invitation> | null>;
    queue: { sentAt(id: ObjectId): Promise<Date | null> };
  };
  reviews: {
    get(id: number): Promise<Review | null>;
    byLinkToken(field: 'editToken' | 'confirmToken', token: string): Promise<Review | null>;
    update(id: number, changes: ReviewChanges): Promise<Review | null>;
  };
}

/** What the writer changes on the edit page. */
export type WriterEdit = Pick<Review, 'rating' | 'ratings' | 'comment' | 'name' | 'country'> &
  Pick<ReviewChanges, 'photos'>;

const shopNameOf = async (deps: ShopFinder<Webshop>, shopId: number) => (await findWebshop(deps, shopId))?.name ?? null;

/**
 * The invitation of a review link (/review/{token}) and its shop's name; null when the token names none, or its
 * shop is gone. A token not of the links' format is not looked up.
 */
export async function openReviewLink(
  deps: Pick<PageDeps, 'invitations' | 'webshops'>,
  token: string,
): Promise<{ invitation: WithId<Invitation>; shopName: string } | null> {
  if (!LINK_SECRET_FORMAT.test(token)) return null;
  const invitation = await deps.invitations.byLinkToken(token);
  const shopName = invitation ? await shopNameOf(deps, invitation.shopId) : null;
  return invitation && shopName !== null ? { invitation, shopName } : null;
}

/**
 * Whether the invitation's review link has expired (expiry.ts). Sending is never before the invitation was due:
 * only a link that old needs the look-up of when it was sent.
 */
export async function reviewLinkExpired(
  deps: Pick<PageDeps, 'now' | 'invitations'>,
  invitation: WithId<Invitation>,
): Promise<boolean> {
  const now = deps.now();
  if (!linkExpired(invitation.scheduled, REVIEW_LINK_DAYS, now)) return false;
  const sent = await deps.invitations.queue.sentAt(invitation._id);
  return linkExpired(reviewLinkSince(invitation.scheduled, sent), REVIEW_LINK_DAYS, now);
}

/**
 * The live review whose edit or confirmation link carries the token, and its shop's name (null: the shop is gone,
 * and the page answers as for an unknown link, in the review's language); null when the token names none.
 */
export async function openReviewByLink(
  deps: Pick<PageDeps, 'reviews' | 'webshops'>,
  field: 'editToken' | 'confirmToken',
  token: string,
): Promise<{ review: Review; shopName: string | null } | null> {
  if (!LINK_SECRET_FORMAT.test(token)) return null;
  const review = await deps.reviews.byLinkToken(field, token);
  return review ? { review, shopName: await shopNameOf(deps, review.shopId) } : null;
}

/**
 * Saves the writer's edit. Saving without a change is no change: no new version and no reviews.updated event.
 * `photos` is left out of the edit when they stay as they were. Null: the review is gone meanwhile.
 */
export async function saveWriterEdit(
  deps: Pick<PageDeps, 'reviews'>,
  review: Review,
  edit: WriterEdit,
): Promise<Review | null> {
  const unchanged =
    edit.rating === review.rating &&
    JSON.stringify(edit.ratings) === JSON.stringify(review.ratings) &&
    edit.comment === review.comment &&
    edit.name === review.name &&
    edit.country === review.country &&
    !('photos' in edit);
  return unchanged ? review : deps.reviews.update(review.id, edit);
}

/** One published review of the shop with its shop (the page Google's product review feed points to), or null. */
export async function publishedReviewOf(
  deps: Pick<PageDeps, 'reviews' | 'webshops'>,
  shopId: number,
  reviewId: number,
): Promise<{ shop: Webshop; review: Review } | null> {
  const shop = await findWebshop(deps, shopId);
  const review = shop ? await deps.reviews.get(reviewId) : null;
  return shop && review && review.shopId === shop.id && review.published ? { shop, review } : null;
}
