// Start-up step: the review events that a version before the work queue queued in `events` move to the work queue
// `webhook_events` (server/webhooks/event-queue.ts), due when they were recorded, so the worker dispatches them once:
// - an event with its review (the queue's last old shape) is queued as it is;
// - an event of the shape before that (no review, a `dispatched` flag) is queued with the review as it is now, what
//   that version's full run would have sent too, unless it was dispatched or its review is gone;
// - each is queued under its id before it leaves the old collection, so a second run (another process starting at
//   once, or a restart after a crash) finds it queued already. Dispatching it twice would not send it twice either:
//   a delivery's `_id` is the event's and the subscription's.
// No marker: only older versions write `events`, so after the first run every start reads an empty collection. An
// old process still running during the upgrade may dispatch some of them meanwhile, which creates nothing twice.
import type { Review, ReviewEvent } from '../reviews/model.js';
import type { Services } from '../services.js';

/** An event as the versions before the work queue stored it: with its review, or (older) a flag instead. */
type LegacyEvent = Omit<ReviewEvent, 'review'> & { review?: Review; dispatched?: boolean };

export const LEGACY_EVENT_QUEUE = 'events';
const PAGE = 500;

/** Returns how many events were moved to the work queue. */
export async function migrateWebhookEvents({
  db,
  reviews,
  reviewEvents,
}: Pick<Services, 'db' | 'reviewEvents' | 'reviews'>): Promise<number> {
  const legacy = db.collection<LegacyEvent>(LEGACY_EVENT_QUEUE);
  let moved = 0;
  for (;;) {
    const page = await legacy.find({}).sort({ created: 1 }).limit(PAGE).toArray();
    if (page.length === 0) return moved;
    const undispatched = page.filter((e) => !e.review && e.dispatched === false);
    const current = new Map(
      (await reviews.byIds([...new Set(undispatched.map((e) => e.reviewId))])).map((r) => [r.id, r]),
    );
    for (const { dispatched, ...event } of page) {
      const review = event.review ?? (dispatched === false ? current.get(event.reviewId) : undefined);
      if (review && (await reviewEvents.adopt({ ...event, review }))) moved++;
    }
    await legacy.deleteMany({ _id: { $in: page.map((e) => e._id) } });
  }
}
