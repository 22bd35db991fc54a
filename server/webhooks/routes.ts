// POST /api/1.0/webhook.json (subscribe) and GET /api/1.0/webhooks.json (list). Both answer credential problems
// with 401 `{"status":"error","message":"Unauthorized"}` (the list's body is fixed by the spec; subscribe follows
// it), bad input with 400 in the same envelope.
//
// Our extensions of the webhook API, in the same style (`id` + `code` in the query, 401 `Unauthorized`, 400 for bad
// input, 404 for a subscription that is not the shop's):
//   GET    /api/1.0/webhooks/{id}.json              one subscription, with why it was switched off
//   PATCH  /api/1.0/webhooks/{id}.json              change url, topic or is_active (e.g. on again after a switch-off)
//   DELETE /api/1.0/webhooks/{id}.json              remove it, its pending deliveries and its log
//   GET    /api/1.0/webhooks/{id}/deliveries.json   the delivery log, newest first, 20 per page, X-Total
//   POST   /api/1.0/webhooks/{id}/redeliver.json?event_id=…   send an event again
import type Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import { z } from 'zod';
import { classic } from '../http/classic.js';
import { parseJsonObject, readRawBody } from '../http/body.js';
import { ClassicError, HttpError } from '../http/errors.js';
import { intParam } from '../http/params.js';
import { idParam, validate } from '../http/validate.js';
import type { Services } from '../services.js';
import { formatTimestamp } from '../time.js';
import type { DeliveryLogEntry } from './delivery-store.js';
import { triggerDelivery } from './jobs.js';
import { WEBHOOK_TOPICS, type WebhookSubscription } from './store.js';
import { refusalOf } from './ssrf.js';

const BODY_LIMIT = 64 * 1024;
const PAGE_SIZE = 20;
/**
 * Every subscription is one more request per event, and a shop's requests share its two sending lanes (see
 * lanes.ts): at 20, an event whose receivers all hang holds up the shop's own next events for 100 s at most, not
 * 500 s. Twenty is still several receivers per topic, and one page of the list shows them all.
 */
export const MAX_SUBSCRIPTIONS_PER_SHOP = 20;

const unauthorized = { status: 401, message: 'Unauthorized' };

const failWith500: Middleware = async (ctx, next) => {
  ctx.state.unexpectedStatus = 500;
  await next();
};

export const subscribeSchema = z.object({
  url: z
    .string({ error: (i) => (i.input === undefined ? 'is required' : 'must be a string') })
    .trim()
    .max(2000, { error: 'must be at most 2000 characters' })
    .pipe(z.url({ protocol: /^https?$/, error: 'must be an absolute http:// or https:// URL' })),
  topic: z.enum(WEBHOOK_TOPICS, {
    error: (i) => (i.input === undefined ? 'is required' : `must be one of ${WEBHOOK_TOPICS.join(', ')}`),
  }),
  is_active: z.boolean({ error: 'must be true or false' }).optional(),
});

function listItem(s: WebhookSubscription) {
  return { id: s.id, topic: s.topic, url: s.url, secret: s.secret, is_active: s.is_active };
}

/** `page` as the other paging parameters are read (digits, clamped), but a non-number is a 400 here. */
function pageParam(value: unknown): number {
  try {
    return intParam(value, 'page', { min: 1, max: 10_000_000, fallback: 1 });
  } catch (err) {
    if (err instanceof ClassicError) throw new HttpError(400, err.message);
    throw err;
  }
}

export function registerWebhookRoutes(router: Router, services: Services): void {
  const { webhooks } = services;

  router.post(
    '/api/1.0/webhook.json',
    failWith500,
    classic(services, { empty: {}, unauthorized }, async (ctx, { shop }) => {
      const input = validate(subscribeSchema, parseJsonObject(await readRawBody(ctx, BODY_LIMIT)), 400);
      const refusal = await refusalOf(input.url, services.config.webhooks.allowedHosts);
      if (refusal) throw new HttpError(400, `url: ${refusal}`);
      const wanted = { url: input.url, topic: input.topic, is_active: input.is_active ?? true };
      const created = await webhooks.createWithin(shop.id, wanted, MAX_SUBSCRIPTIONS_PER_SHOP);
      if (!created) {
        throw new HttpError(
          400,
          `A webshop can have at most ${MAX_SUBSCRIPTIONS_PER_SHOP} webhook subscriptions: delete one (DELETE /api/1.0/webhooks/{id}.json) before adding another.`,
        );
      }
      return {
        message: 'Webhook subscription created',
        data: { webhook_id: created.id, url: created.url, topic: created.topic, secret: created.secret },
      };
    }),
  );

  router.get(
    '/api/1.0/webhooks.json',
    failWith500,
    classic(services, { empty: {}, unauthorized }, async (ctx, { shop, params }) => {
      const page = pageParam(params.page);
      const { items, total } = await webhooks.page(shop.id, (page - 1) * PAGE_SIZE, PAGE_SIZE);
      ctx.set('X-Total', String(total));
      ctx.body = items.map(listItem);
      return {};
    }),
  );
}

export const patchSchema = subscribeSchema.partial();

const view = (s: WebhookSubscription) => ({ ...listItem(s), disabled_reason: s.disabled_reason ?? null });

function logItem(e: DeliveryLogEntry) {
  return {
    time: formatTimestamp(e.time),
    topic: e.topic,
    event_id: e.eventId,
    attempt: e.attempt,
    http_status: e.status,
    error: e.error,
    duration_ms: e.durationMs,
    redelivery: e.redelivery,
  };
}

/** Event ids are `<review id>:<version>`; anything else cannot name one (and never reaches a query). */
function eventIdParam(value: unknown): string {
  if (value === undefined || value === '') throw new HttpError(400, 'The parameter event_id is required.');
  if (typeof value !== 'string' || !/^\d{1,15}:\d{1,9}$/.test(value)) {
    throw new HttpError(400, 'The parameter event_id must be an event id as sent in X-Event-Id, e.g. 12:1.');
  }
  return value;
}

export function registerWebhookManageRoutes(router: Router, services: Services): void {
  const { webhooks, webhookDeliveries } = services;
  const endpoint = (handler: (ctx: Context, subscription: WebhookSubscription) => Promise<Record<string, unknown>>) => [
    failWith500,
    classic(services, { empty: {}, unauthorized }, async (ctx, { shop }) => {
      const id = idParam(ctx.params.id, 'webhook');
      const subscription = await webhooks.getForShop(shop.id, id);
      if (!subscription) throw new HttpError(404, `Webhook ${id} not found.`);
      return handler(ctx, subscription);
    }),
  ];

  router.get(
    '/api/1.0/webhooks/:id.json',
    ...endpoint(async (_ctx, subscription) => ({ message: 'Webhook subscription retrieved', data: view(subscription) })),
  );

  router.patch(
    '/api/1.0/webhooks/:id.json',
    ...endpoint(async (ctx, subscription) => {
      const changes = validate(patchSchema, parseJsonObject(await readRawBody(ctx, BODY_LIMIT)), 400);
      if (changes.url === undefined && changes.topic === undefined && changes.is_active === undefined) {
        throw new HttpError(400, 'body: give at least one of url, topic, is_active');
      }
      if (changes.url !== undefined) {
        const refusal = await refusalOf(changes.url, services.config.webhooks.allowedHosts);
        if (refusal) throw new HttpError(400, `url: ${refusal}`);
      }
      const updated = await webhooks.update(subscription.shopId, subscription.id, changes);
      if (!updated) throw new HttpError(404, `Webhook ${subscription.id} not found.`);
      return { message: 'Webhook subscription updated', data: view(updated) };
    }),
  );

  router.delete(
    '/api/1.0/webhooks/:id.json',
    ...endpoint(async (_ctx, subscription) => {
      await webhooks.remove(subscription.shopId, subscription.id);
      await webhookDeliveries.removeSubscription(subscription.id);
      return { message: 'Webhook subscription deleted' };
    }),
  );

  router.get(
    '/api/1.0/webhooks/:id/deliveries.json',
    ...endpoint(async (ctx, subscription) => {
      const page = pageParam(ctx.query.page);
      const { items, total } = await webhookDeliveries.logPage(subscription.id, (page - 1) * PAGE_SIZE, PAGE_SIZE);
      ctx.set('X-Total', String(total));
      ctx.body = items.map(logItem);
      return {};
    }),
  );

  router.post(
    '/api/1.0/webhooks/:id/redeliver.json',
    ...endpoint(async (ctx, subscription) => {
      const eventId = eventIdParam(ctx.query.event_id);
      if (!subscription.is_active) {
        throw new HttpError(400, 'The webhook is switched off: set is_active to true before asking for a redelivery.');
      }
      const delivery = await webhookDeliveries.find(subscription.id, eventId);
      if (!delivery) throw new HttpError(404, `Event ${eventId} was not sent to webhook ${subscription.id}.`);
      await webhookDeliveries.redeliver(delivery, services.now());
      triggerDelivery(services);
      return { message: 'Redelivery queued' };
    }),
  );
}
