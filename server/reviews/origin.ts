// Where a review comes from, as shoppers are told (issue 11; docs/decisions.md "Review origin"). EU law makes it
// material whether and how a shop checks that its reviews come from real customers, so each review says how it was
// checked: the order was proven, only the writer's e-mail address was, or it was imported from another platform.
import type { Review } from './model.js';

export const ORIGINS = ['verified_order', 'email_confirmed', 'imported'] as const;
export type ReviewOrigin = (typeof ORIGINS)[number];

/**
 * The origin follows from how the review was written and whether its order was proven (`verified`: the invitation's
 * link, signed order data, or the shop's own Add invitation matching an unsigned pop-up review). An import is
 * always `imported`: the import stores what the source platform claimed apart, as `source_verified`, with
 * `verified: false`, since it proves nothing here.
 */
export function originOf(review: Pick<Review, 'source' | 'verified'>): ReviewOrigin {
  if (review.source === 'import') return 'imported';
  return review.verified ? 'verified_order' : 'email_confirmed';
}

/** The four fields shown flat wherever a review is shown to clients (ratings.json, webhooks, embed, operator API). */
export interface OriginFields {
  origin: ReviewOrigin;
  incentivised: boolean;
  imported_from: string | null;
  /** ISO 8601; the date the review carried on the platform it was imported from. */
  original_date: string | null;
}

/** Reviews stored before origins existed read as their migration would set them (see migrations/review-origins.ts). */
export function originFields(
  r: Pick<Review, 'source' | 'verified'> &
    Partial<Pick<Review, 'origin' | 'incentivised' | 'imported_from' | 'original_date'>>,
): OriginFields {
  return {
    origin: r.origin ?? originOf(r),
    incentivised: r.incentivised ?? false,
    imported_from: r.imported_from ?? null,
    original_date: r.original_date ? new Date(r.original_date).toISOString() : null,
  };
}

/** How a shop collects its reviews, for the feed's `collection_method`: only invitations follow the order. */
export const collectionMethodOf = (review: Pick<Review, 'source'>): 'post_fulfillment' | 'unsolicited' =>
  review.source === 'invitation' ? 'post_fulfillment' : 'unsolicited';
