// Managing a shop's webhook subscriptions, the rules in one place for both ways in: the classic API
// (/api/1.0/webhook*.json, routes.ts) and the merchant dashboard (/dashboard/api/shops/{id}/webhooks…). Where a
// webhook may point (SSRF check), how many a shop may have, what a change resets, what a removal takes with it and
// when an event may be sent again. Errors are HttpErrors (400 for a refused rule, 404 for an unknown event); each
// route answers them in its own envelope.
import { HttpError } from '../http/errors.js';
import type { Services } from '../services.js';
import type { DeliveryLogEntry } from './delivery-store.js';
import { triggerDelivery } from './jobs.js';
import { refusalOf } from './ssrf.js';
import type { WebhookSubscription } from './store.js';
import type { deliveryLogItemSchema } from './openapi.js';
import type { z } from 'zod';

type NewSubscription = Pick<WebhookSubscription, 'url' | 'topic'> & { is_active?: boolean };
type SubscriptionChanges = Partial<Pick<WebhookSubscription, 'url' | 'topic' | 'is_active'>>;

/** `url` must not reach loopback, private or metadata addresses (unless the operator allowed the host). */
async function refuseUnsafeUrl(services: Pick<Services, 'config'>, url: string): Promise<void> {
  const refusal = await refusalOf(url, services.config.webhooks.allowedHosts);
  if (refusal) throw new HttpError(400, `url: ${refusal}`, 'invalid');
}

/**
 * `howToMakeRoom`: how the caller's API deletes a subscription, for the message when the shop has the most
 * (WEBHOOK_MAX_PER_SHOP: every subscription is one more request per event in the shop's own lanes, see config.ts).
 */
export async function subscribe(
  services: Pick<Services, 'config' | 'webhooks'>,
  shopId: number,
  input: NewSubscription,
  howToMakeRoom: string,
): Promise<WebhookSubscription> {
  await refuseUnsafeUrl(services, input.url);
  const wanted = { url: input.url, topic: input.topic, is_active: input.is_active ?? true };
  const max = services.config.webhooks.maxPerShop;
  const created = await services.webhooks.createWithin(shopId, wanted, max);
  if (!created) {
    throw new HttpError(
      400,
      `A webshop can have at most ${max} webhook subscriptions: delete one (${howToMakeRoom}) before adding another.`,
      'limit_reached',
    );
  }
  return created;
}

/** A subscription of the shop, or a 404 naming it (another shop's is not found either). */
export async function subscriptionOf(
  services: Pick<Services, 'webhooks'>,
  shopId: number,
  id: number,
): Promise<WebhookSubscription> {
  const subscription = await services.webhooks.getForShop(shopId, id);
  if (!subscription) throw new HttpError(404, `Webhook ${id} not found.`);
  return subscription;
}

/** Switching a subscription on again clears the reason and count of an automatic switch-off (in the store). */
export async function changeSubscription(
  services: Pick<Services, 'config' | 'webhooks'>,
  subscription: WebhookSubscription,
  changes: SubscriptionChanges,
): Promise<WebhookSubscription> {
  if (changes.url === undefined && changes.topic === undefined && changes.is_active === undefined) {
    throw new HttpError(400, 'body: give at least one of url, topic, is_active', 'invalid');
  }
  if (changes.url !== undefined) await refuseUnsafeUrl(services, changes.url);
  const updated = await services.webhooks.update(subscription.shopId, subscription.id, changes);
  if (!updated) throw new HttpError(404, `Webhook ${subscription.id} not found.`);
  return updated;
}

/** Removes the subscription with its pending deliveries and its log. */
export async function removeSubscription(
  services: Pick<Services, 'webhookDeliveries' | 'webhooks'>,
  subscription: WebhookSubscription,
): Promise<void> {
  await services.webhooks.remove(subscription.shopId, subscription.id);
  await services.webhookDeliveries.removeSubscription(subscription.id);
}

export function deliveryLog(
  services: Pick<Services, 'webhookDeliveries'>,
  subscription: WebhookSubscription,
  offset: number,
  limit: number,
): Promise<{ items: DeliveryLogEntry[]; total: number }> {
  return services.webhookDeliveries.logPage(subscription.id, offset, limit);
}

/** A delivery log entry as both APIs show it; `time` writes the date in the API's own format. */
export function deliveryLogItem(
  e: DeliveryLogEntry,
  time: (at: Date) => string,
): z.infer<typeof deliveryLogItemSchema> {
  return {
    time: time(e.time),
    topic: e.topic,
    event_id: e.event_id,
    attempt: e.attempt,
    http_status: e.status,
    error: e.error,
    duration_ms: e.duration_ms,
    redelivery: e.redelivery,
  };
}

/** Event ids are `<review id>:<version>`; anything else cannot name one (and never reaches a query). */
export function isEventId(value: unknown): value is string {
  return typeof value === 'string' && /^\d{1,15}:\d{1,9}$/.test(value);
}

/** Sends an event again now (one attempt; a pending delivery just moves up). */
export async function redeliver(
  services: Pick<Services, 'now' | 'scheduler' | 'webhookDeliveries'>,
  subscription: WebhookSubscription,
  eventId: string,
): Promise<void> {
  if (!subscription.is_active) {
    throw new HttpError(400, 'The webhook is switched off: set is_active to true before asking for a redelivery.');
  }
  const delivery = await services.webhookDeliveries.find(subscription.id, eventId);
  if (!delivery) throw new HttpError(404, `Event ${eventId} was not sent to webhook ${subscription.id}.`);
  await services.webhookDeliveries.redeliver(delivery, services.now());
  triggerDelivery(services);
}
