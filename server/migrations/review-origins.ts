// Start-up migration of review origins (issue 11), run by every process at start and idempotent (a marker in
// `migrations`, and every update leaves a review that no longer matches it). No events and no version bump: the
// reviews do not change for clients beyond what the issue asks. A shop's verified share may drop (README, "Upgrading").
//
// The origin follows from `source` and `verified` (reviews/origin.ts), and reviews without the new fields read as their
// defaults (reviews/origin.ts originFields), so only the reviews whose `verified` changes are written: on FerretDB every document an
// update touches costs about 10 ms, and writing all 20,000 reviews of a shop held its start-up for minutes.
// - invitation reviews are verified orders (any that were not are set so);
// - pop-up reviews with a signed receipt, a matching invitation (same order, same address) or verified by the
//   hardened trust rules are verified orders; other pop-up reviews are not (before the hardening issue a
//   confirmation e-mail alone made them "verified");
// - form reviews only confirmed an e-mail address;
// - imports are never verified here: what the source platform claimed (their former `verified`) is kept as
//   `source_verified`.
import type { Collection } from '../db/index.js';
import { MigrationMarkers } from '../db/migrations.js';
import type { Services } from '../services.js';
import { sameEmail } from '../reviews/rules.js';
import type { Review, ReviewSource } from '../reviews/model.js';

const ORIGIN_DONE = 'reviews.origin';

type Popup = Pick<Review, 'id' | 'shopId' | 'order' | 'email' | 'verified' | 'emailConfirmed'>;

/**
 * Whether a pop-up review's order is proven: the shop signed the order data, its own invitation for the order went
 * to the review's address, or the hardened rules verified it (they record `emailConfirmed`, older versions did not).
 */
function popupProven(
  review: Popup,
  signedOrders: ReadonlySet<string>,
  invited: readonly { email: string; order: string }[],
): boolean {
  if (review.verified && review.emailConfirmed !== undefined) return true;
  if (!review.order) return false;
  if (signedOrders.has(review.order)) return true;
  return invited.some((i) => i.order === review.order && sameEmail(i.email, review.email));
}

type Deps = Pick<Services, 'db' | 'now' | 'log' | 'consents' | 'invitations'>;

/**
 * Sets `changes` on the reviews that have no origin yet and match. Like the mail bookkeeping it is not a change of
 * the review: no new version, no event. Returns how many changed.
 */
async function backfillOrigin(
  reviews: Collection<Review>,
  match: { source: ReviewSource; verified?: boolean; ids?: readonly number[] },
  changes: Pick<Review, 'origin' | 'verified'> & Pick<Partial<Review>, 'source_verified'>,
): Promise<number> {
  const filter = {
    origin: { $exists: false },
    source: match.source,
    ...(match.verified === undefined ? {} : { verified: match.verified }),
    ...(match.ids ? { id: { $in: [...match.ids] } } : {}),
  };
  return (await reviews.updateMany(filter, { $set: changes })).modifiedCount;
}

export async function migrateReviewOrigins(services: Deps): Promise<void> {
  const markers = new MigrationMarkers(services.db, services.now);
  if (await markers.isDone(ORIGIN_DONE)) return;
  const reviews = services.db.collection<Review>('reviews');

  const changed =
    (await backfillOrigin(
      reviews,
      { source: 'invitation', verified: false },
      { origin: 'verified_order', verified: true },
    )) +
    (await backfillOrigin(
      reviews,
      { source: 'form', verified: true },
      { origin: 'email_confirmed', verified: false },
    )) +
    (await backfillOrigin(
      reviews,
      { source: 'import', verified: true },
      { origin: 'imported', verified: false, source_verified: true },
    )) +
    (await migratePopups(services, reviews));

  if (changed > 0) services.log.info({ changed }, 'review origins set');
  await markers.markDone(ORIGIN_DONE);
}

async function migratePopups(services: Deps, reviews: Collection<Review>): Promise<number> {
  const byShop = new Map<number, Popup[]>();
  // The pop-up reviews that have no origin yet (a scan).
  const popups = reviews.find(
    { source: 'popup', origin: { $exists: false } },
    { projection: { _id: 0, id: 1, shopId: 1, order: 1, email: 1, verified: 1, emailConfirmed: 1 } },
  );
  for (const review of (await popups.toArray()) as Popup[]) {
    byShop.set(review.shopId, [...(byShop.get(review.shopId) ?? []), review]);
  }
  const promoted: number[] = [];
  const demoted: number[] = [];
  for (const [shopId, popups] of byShop) {
    const orders = [...new Set(popups.map((r) => r.order).filter(Boolean))];
    const signedOrders = new Set<string>();
    for (const order of orders) if (await services.consents.get(shopId, order)) signedOrders.add(order);
    const invited = await services.invitations.addressesForOrders(shopId, orders);
    for (const review of popups) {
      const proven = popupProven(review, signedOrders, invited);
      if (proven && !review.verified) promoted.push(review.id);
      if (!proven && review.verified) demoted.push(review.id);
    }
  }
  return (
    (promoted.length
      ? await backfillOrigin(reviews, { source: 'popup', ids: promoted }, { origin: 'verified_order', verified: true })
      : 0) +
    (demoted.length
      ? await backfillOrigin(reviews, { source: 'popup', ids: demoted }, { origin: 'email_confirmed', verified: false })
      : 0)
  );
}
