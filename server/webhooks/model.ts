// A webhook subscription and a delivery log entry as stored (store.ts, delivery-store.ts keep them): types only, so
// the dashboard and the start-up migrations name what they handle without importing the stores and the database.
import type { ReviewTopic } from '../reviews/model.js';

export interface WebhookSubscription {
  id: number;
  shopId: number;
  url: string;
  topic: ReviewTopic;
  /** 32 random bytes as lowercase hex. */
  secret: string;
  is_active: boolean;
  created: Date;
  /** Why the service switched the subscription off (e.g. a target that keeps failing); null while nobody did. */
  disabled_reason: string | null;
  /** Events whose delivery failed for good, in a row; reset by every successful delivery (internal, not shown). */
  consecutiveFailures: number;
}

/**
 * One attempt. `event_id` and `duration_ms` are shown by the delivery log endpoint under these names, so they are
 * stored under them (docs/decisions.md, "Stored field names"); the ids only the service reads are camelCase.
 */
export interface DeliveryLogEntry {
  subscriptionId: number;
  shopId: number;
  deliveryId: string;
  event_id: string;
  topic: ReviewTopic;
  attempt: number;
  time: Date;
  status: number | null;
  error: string | null;
  duration_ms: number;
  redelivery: boolean;
}
