// The reviews of product_reviews.xml (routes.ts), read in batches through the one method the feed needs of the
// reviews, so the route reaches no other feature's store (docs/architecture.md).
import type { Review } from '../reviews/model.js';

/** What the feed reads of the reviews (reviews/store.ts has it). */
export interface FeedReviews {
  reviews: { modifiedSince(shopId: number, since: Date | undefined, batchSize: number): AsyncGenerator<Review[]> };
}

/** Reviews read from the database per batch of the feed: memory stays bounded whatever the shop's history. */
const FEED_BATCH = 500;

/**
 * The shop's reviews changed at or after `since` (inclusive: a client sends back the newest it saw), in batches. The
 * first batch is read before answering, so that a failing database still gets the XML error document.
 */
export async function feedBatches(
  deps: FeedReviews,
  shopId: number,
  since: Date | undefined,
): Promise<AsyncIterable<Review[]>> {
  const batches = deps.reviews.modifiedSince(shopId, since, FEED_BATCH);
  const first = await batches.next();
  return (async function* () {
    if (first.done) return;
    yield first.value;
    yield* batches;
  })();
}
