// The review events waiting for the webhooks (server/webhooks/event-queue.ts: the work queue `webhook_events`), as
// the tests of the writes that cause them read them: each event's payload, a review's in version order.
import type { Db } from 'mongodb';
import { WEBHOOK_EVENT_QUEUE, type QueuedEvent } from '../server/webhooks/event-queue.js';

export async function queuedEvents(db: Db, reviewId?: number): Promise<QueuedEvent[]> {
  const items = await db
    .collection<{ _id: string; payload: QueuedEvent }>(WEBHOOK_EVENT_QUEUE)
    .find(reviewId === undefined ? {} : { 'payload.reviewId': reviewId })
    .toArray();
  return items.map((item) => item.payload).sort((a, b) => a.reviewId - b.reviewId || a.version - b.version);
}
