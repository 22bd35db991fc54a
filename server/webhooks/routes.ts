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
// The rules (where a webhook may point, how many, what a change or removal does) are in service.ts, shared with
// the merchant dashboard; this file parses and answers.
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
import { WEBHOOK_TOPICS, type WebhookSubscription } from './store.js';
import type { listedSubscription, subscriptionState } from './openapi.js';
import {
  changeSubscription,
  deliveryLog,
  deliveryLogItem,
  isEventId,
  redeliver,
  removeSubscription,
  subscribe,
  subscriptionOf,
} from './service.js';

const BODY_LIMIT = 64 * 1024;
const PAGE_SIZE = 20;
/** How many subscriptions a shop may have unless WEBHOOK_MAX_PER_SHOP says otherwise (fairness.it.test.ts). */
export { DEFAULT_WEBHOOKS_PER_SHOP as MAX_SUBSCRIPTIONS_PER_SHOP } from '../config.js';

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

function listItem(s: WebhookSubscription): z.infer<typeof listedSubscription> {
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

export function registerWebhookRoutes(
  router: Router,
  services: Pick<Services, 'config' | 'shopLimiter' | 'webhooks' | 'webshops'>,
): void {
  const { webhooks } = services;

  router.post(
    '/api/1.0/webhook.json',
    failWith500,
    classic(services, { empty: {}, unauthorized }, async (ctx, { shop }) => {
      const input = validate(subscribeSchema, parseJsonObject(await readRawBody(ctx, BODY_LIMIT)), 400);
      const created = await subscribe(services, shop.id, input, 'DELETE /api/1.0/webhooks/{id}.json');
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

const view = (s: WebhookSubscription): z.infer<typeof subscriptionState> => ({
  ...listItem(s),
  disabled_reason: s.disabled_reason ?? null,
});

function eventIdParam(value: unknown): string {
  if (value === undefined || value === '') throw new HttpError(400, 'The parameter event_id is required.');
  if (!isEventId(value)) {
    throw new HttpError(400, 'The parameter event_id must be an event id as sent in X-Event-Id, e.g. 12:1.');
  }
  return value;
}

export function registerWebhookManageRoutes(
  router: Router,
  services: Pick<
    Services,
    'config' | 'now' | 'scheduler' | 'shopLimiter' | 'webhookDeliveries' | 'webhooks' | 'webshops'
  >,
): void {
  const endpoint = (handler: (ctx: Context, subscription: WebhookSubscription) => Promise<Record<string, unknown>>) => [
    failWith500,
    classic(services, { empty: {}, unauthorized }, async (ctx, { shop }) => {
      const subscription = await subscriptionOf(services, shop.id, idParam(ctx.params.id, 'webhook'));
      return handler(ctx, subscription);
    }),
  ];

  router.get(
    '/api/1.0/webhooks/:id.json',
    ...endpoint(async (_ctx, subscription) => ({
      message: 'Webhook subscription retrieved',
      data: view(subscription),
    })),
  );

  router.patch(
    '/api/1.0/webhooks/:id.json',
    ...endpoint(async (ctx, subscription) => {
      const changes = validate(patchSchema, parseJsonObject(await readRawBody(ctx, BODY_LIMIT)), 400);
      const updated = await changeSubscription(services, subscription, changes);
      return { message: 'Webhook subscription updated', data: view(updated) };
    }),
  );

  router.delete(
    '/api/1.0/webhooks/:id.json',
    ...endpoint(async (_ctx, subscription) => {
      await removeSubscription(services, subscription);
      return { message: 'Webhook subscription deleted' };
    }),
  );

  router.get(
    '/api/1.0/webhooks/:id/deliveries.json',
    ...endpoint(async (ctx, subscription) => {
      const page = pageParam(ctx.query.page);
      const { items, total } = await deliveryLog(services, subscription, (page - 1) * PAGE_SIZE, PAGE_SIZE);
      ctx.set('X-Total', String(total));
      ctx.body = items.map((e) => deliveryLogItem(e, formatTimestamp));
      return {};
    }),
  );

  router.post(
    '/api/1.0/webhooks/:id/redeliver.json',
    ...endpoint(async (ctx, subscription) => {
      const eventId = eventIdParam(ctx.query.event_id);
      await redeliver(services, subscription, eventId);
      return { message: 'Redelivery queued' };
    }),
  );
}
