// What a "Helpful" vote needs of the reviews, read through the one method named here rather than the review store,
// so the route reaches no other feature's store (docs/architecture.md).
import { HttpError } from '../http/errors.js';
import type { Review } from '../reviews/model.js';

/** What finding the review takes: the review store's `get`. */
export interface VoteDeps {
  reviews: { get(id: number): Promise<Review | null> };
}

/** The published review `/reviews/{id}/helpful` names, or the 404 `No such review.` (unknown, hidden or bad id). */
export async function reviewToVoteOn(deps: VoteDeps, rawId: string): Promise<Review> {
  const review = /^\d{1,15}$/.test(rawId) ? await deps.reviews.get(Number(rawId)) : null;
  if (!review?.published) throw new HttpError(404, 'No such review.');
  return review;
}
