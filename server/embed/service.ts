// What the pop-up's review and the serviceAddReview form must pass before their review is written, where it spans
// other features' stores (the pop-up's review tokens, the photo uploads, the limit of e-mails to an address), so
// that routes.ts parses and answers. Each function takes the few methods it calls (docs/architecture.md).
import { HttpError } from '../http/errors.js';
import { enforceLimit, TOO_MANY_REQUESTS, type RateLimiter } from '../http/rate-limit.js';
import { pendingPhotos } from '../photos/service.js';
import type { PopupToken, ReviewPhoto } from '../reviews/model.js';
import type { Webshop } from '../webshops/model.js';
import { requiresSignedOrderData } from '../webshops/rules.js';

export const EMBED_MESSAGES = {
  wrongSignature: 'The order data signature is not valid.',
  otherShop: 'order.webshopId: does not match the webshop in the address',
  noOrderNumber: 'order.orderNumber: must not be empty',
  alreadyChosen: 'A choice was already recorded for this order.',
  signedOnly: 'This shop accepts only signed order data.',
  badToken: 'This review token is unknown, expired or already used.',
  emailRequired: 'email: required, because the order data carried no e-mail address',
  tooMany: TOO_MANY_REQUESTS,
} as const;

/** The photos a review names: uploaded first (POST /embed/{id}/photos), each with its alternative text. */
type NamedPhotos = { id: string; alt: string }[] | undefined;

interface UploadDeps {
  /** The upload's record (photos/store.ts): its shop, and the review that took it (null: none yet). */
  photos: { get(id: string): Promise<{ shopId: number; reviewId: number | null } | null> };
}

export interface PopupReviewDeps extends UploadDeps {
  /** reviews/popup-token-store.ts: the token's record while it can still be used, and using it once. */
  popupTokens: {
    peek(shopId: number, token: string): Promise<PopupToken | null>;
    claim(token: PopupToken): Promise<boolean>;
  };
  /** mail/recipient-limit-store.ts: one of the day's e-mails to an address, or the 429 the embed shows. */
  recipientLimit: { admit(email: string): Promise<void> };
}

/** The uploads a review names: each one of this shop's that no review has taken yet (else a 400). */
async function takeUploads(deps: UploadDeps, shopId: number, named: NamedPhotos): Promise<ReviewPhoto[]> {
  const ids = (named ?? []).map((p) => p.id);
  if (new Set(ids).size !== ids.length) throw new HttpError(400, 'photos: each photo once');
  for (const id of ids) {
    const record = await deps.photos.get(id);
    if (!record || record.shopId !== shopId || record.reviewId != null)
      throw new HttpError(400, 'photos: not an upload of this shop that no review has taken');
  }
  return pendingPhotos(named ?? []);
}

/**
 * The checks of a review written in the pop-up, in order, ending with its review token used: the token must be
 * this shop's and still usable; an unsigned one, issued before the shop began to require signed order data, no
 * longer writes a review; the address is the signed order's or, when it carried none, the one typed; an address
 * the shop did not sign is the requester's word and takes one of the day's e-mails to it (the confirmation); the
 * photos must be this shop's unused uploads. Returns what the review is written with (reviews/publication.ts).
 */
export async function redeemPopupToken(
  deps: PopupReviewDeps,
  shop: Pick<Webshop, 'id' | 'require_signed_order_data'>,
  request: { reviewToken: string; email?: string | null; photos?: NamedPhotos },
): Promise<{ token: PopupToken; email: string; photos: ReviewPhoto[] }> {
  const token = await deps.popupTokens.peek(shop.id, request.reviewToken);
  if (!token) throw new HttpError(403, EMBED_MESSAGES.badToken);
  if (!token.signed && requiresSignedOrderData(shop)) throw new HttpError(403, EMBED_MESSAGES.signedOnly);
  const email = token.email || request.email || '';
  if (!email) throw new HttpError(400, EMBED_MESSAGES.emailRequired);
  if (!token.signed || !token.email) await deps.recipientLimit.admit(email);
  const photos = await takeUploads(deps, shop.id, request.photos);
  // Last, so that a request refused above leaves the token usable for the shopper's next try.
  if (!(await deps.popupTokens.claim(token))) throw new HttpError(403, EMBED_MESSAGES.badToken);
  return { token, email, photos };
}

/**
 * The checks of a review sent with the serviceAddReview form, in order: the photos must be this shop's unused
 * uploads; the form's own limit per shop and address (`perAddress`, the route's); the address typed is the
 * requester's word and takes one of the day's e-mails to it (the confirmation). Returns the review's photos.
 */
export async function admitFormReview(
  deps: Omit<PopupReviewDeps, 'popupTokens'>,
  shopId: number,
  form: { email: string; photos?: NamedPhotos },
  perAddress: RateLimiter,
): Promise<ReviewPhoto[]> {
  const photos = await takeUploads(deps, shopId, form.photos);
  enforceLimit(perAddress, `${shopId}:${form.email.toLowerCase()}`);
  await deps.recipientLimit.admit(form.email);
  return photos;
}
