// What the operator API (admin.ts) does to reviews, as a service: each write goes through the review store's write
// path (so the review events follow) and into the shop's audit trail (audit/service.ts). The route parses the
// request and answers; the sequence of store calls is here.
import { changesOf } from '../audit/changes.js';
import { type AuditDeps, recordOperatorAction } from '../audit/service.js';
import type { NewReview, Review, ReviewChanges } from './model.js';
import type { SubRatings } from './rules.js';
import type { ReviewStore } from './store.js';

export interface OperatorReviewDeps extends AuditDeps {
  reviews: Pick<ReviewStore, 'create' | 'update'>;
}

/** The writer's words and person: the audit trail says only that they changed, and their lengths. */
const REVIEW_TEXTS = ['comment', 'name'];

/** A review the operator imports from another platform into a shop (a shop that exists: the route checked it). */
export async function importReview(deps: OperatorReviewDeps, shopId: number, review: NewReview): Promise<Review> {
  const written = await deps.reviews.create(shopId, review);
  await recordOperatorAction(deps, {
    shopId,
    action: 'review.imported',
    target: `review:${written.id}`,
    details: { rating: written.rating, published: written.published },
  });
  return written;
}

/** The operator's PATCH of a review: the fields given, sub-scores one by one (those not named keep their value). */
export type OperatorPatch = Omit<ReviewChanges, 'ratings'> & { ratings?: Partial<SubRatings> };

/**
 * Applies the operator's changes to the version written, which is also what the trail compares with: the trail
 * records what changed (texts as lengths), and whether the review's publication changed with it. Null when there is
 * no such review.
 */
export async function changeReview(deps: OperatorReviewDeps, id: number, patch: OperatorPatch): Promise<Review | null> {
  const { ratings, ...rest } = patch;
  let before: Review | undefined;
  const updated = await deps.reviews.update(id, (current) => {
    before = current;
    return ratings ? { ...rest, ratings: { ...current.ratings, ...ratings } } : { ...rest };
  });
  if (!updated || !before) return null;
  const details = changesOf({ ...before }, { ...updated }, [...Object.keys(patch), 'published'], REVIEW_TEXTS);
  if (Object.keys(details).length > 0) {
    await recordOperatorAction(deps, {
      shopId: updated.shopId,
      action: 'review.changed',
      target: `review:${id}`,
      details,
    });
  }
  return updated;
}

/**
 * What the "Helpful" counts take: their store's counts per shop (helpful/store.ts), declared here rather than
 * imported, since the helpful feature reads reviews (helpful/service.ts) and reviews must not import it back.
 */
export interface HelpfulCounts {
  helpful: { countsOf(shopId: number): Promise<ReadonlyMap<number, number>> };
}

/** The review's "Helpful" votes, as the operator's answer shows them beside the rating. */
export async function helpfulVotesOf(deps: HelpfulCounts, review: Pick<Review, 'id' | 'shopId'>): Promise<number> {
  return (await deps.helpful.countsOf(review.shopId)).get(review.id) ?? 0;
}
