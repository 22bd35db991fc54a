// POST /api/1.0/webhook.json (subscribe) and GET /api/1.0/webhooks.json (list). Both answer credential problems
// with 401 `{"status":"error","message":"Unauthorized"}` (the list's body is fixed by the spec; subscribe follows
// it), bad input with 400 in the same envelope.
import type Router from '@koa/router';
import type { Middleware } from 'koa';
import { z } from 'zod';
import { classic } from '../http/classic.js';
import { parseJsonObject, readRawBody } from '../http/body.js';
import { ClassicError, HttpError } from '../http/errors.js';
import { intParam } from '../http/params.js';
import { validate } from '../http/validate.js';
import type { Services } from '../services.js';
import { WEBHOOK_TOPICS, type WebhookSubscription } from './store.js';
import { refusalOf } from './ssrf.js';

const BODY_LIMIT = 64 * 1024;
export const PAGE_SIZE = 20;
/**
 * Every subscription is one more request per event, and a shop's requests share its two sending lanes (see
 * lanes.ts): at 20, an event whose receivers all hang holds up the shop's own next events for 100 s at most, not
 * 500 s. Twenty is still several receivers per topic, and one page of the list shows them all.
 */
export const MAX_SUBSCRIPTIONS_PER_SHOP = 20;

export const unauthorized = { status: 401, message: 'Unauthorized' };

export const failWith500: Middleware = async (ctx, next) => {
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

export function listItem(s: WebhookSubscription) {
  return { id: s.id, topic: s.topic, url: s.url, secret: s.secret, is_active: s.is_active };
}

/** `page` as the other paging parameters are read (digits, clamped), but a non-number is a 400 here. */
export function pageParam(value: unknown): number {
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
