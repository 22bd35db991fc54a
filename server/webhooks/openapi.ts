// The contract of the webhook subscription endpoints (routes.ts): the spec's subscribe and list, and our
// extensions in the same style. Bodies are the schemas routes.ts validates with.
import { z } from 'zod';
import { classicError, classicSuccess, credentials, ids, json, type Endpoint } from '../http/contract.js';
import { patchSchema, subscribeSchema } from './routes.js';
import { WEBHOOK_TOPICS } from './store.js';

export const topic = z.enum(WEBHOOK_TOPICS).meta({ id: 'Topic' });

/** A subscription as webhooks.json lists it. */
export const listedSubscription = z
  .object({ id: z.int(), topic, url: z.string(), secret: z.string(), is_active: z.boolean() })
  .meta({ id: 'WebhookSubscription' });

/** One subscription, with why the service switched it off. */
export const subscriptionState = listedSubscription
  .extend({
    disabled_reason: z.string().nullable().meta({ description: 'set when the service switched it off' }),
  })
  .meta({ id: 'WebhookState' });

/** One delivery attempt as the logs show it (here with the classic timestamps, in the dashboard in ISO 8601). */
export const deliveryLogItemSchema = z.object({
  time: z.string(),
  topic,
  event_id: z.string().meta({ description: 'the X-Event-Id' }),
  attempt: z.int().meta({ description: '1 for the first attempt of this event' }),
  http_status: z.int().nullable().meta({ description: 'null when there was no HTTP answer' }),
  error: z.string().nullable().meta({ description: 'network error, timeout or refused target' }),
  duration_ms: z.int(),
  redelivery: z.boolean().meta({ description: 'asked for with redeliver.json' }),
});
const delivery = deliveryLogItemSchema
  .extend({ time: z.string().meta({ description: 'YYYY-MM-DD HH:MM:SS (UTC)' }) })
  .meta({ id: 'Delivery', description: 'one delivery attempt' });

const unauthorized = { 401: classicError('`Unauthorized`') };
const noSuchSubscription = { 404: classicError('no such subscription') };
const done = z.object({ status: z.literal('success'), message: z.string() });
const state = z.object({ status: z.literal('success'), message: z.string(), data: subscriptionState });
const page = z.int().meta({ description: 'default 1' }).optional();
const webhook = { family: 'webhooks', params: ids('id'), query: credentials } as const;

export const webhookEndpoints: Endpoint[] = [
  {
    method: 'post',
    path: '/api/1.0/webhook.json',
    family: 'webhooks',
    summary: 'Subscribe webhook',
    query: credentials,
    body: { schema: subscribeSchema },
    answers: {
      200: json(
        classicSuccess('Webhook subscription created', {
          data: z.object({ webhook_id: z.int(), url: z.string(), topic, secret: z.string() }),
        }),
      ),
      400: classicError(
        'bad request (also: a refused URL, or the shop has as many subscriptions as allowed: 100 unless the operator set another limit)',
      ),
      ...unauthorized,
    },
  },
  {
    method: 'get',
    path: '/api/1.0/webhooks.json',
    family: 'webhooks',
    summary: 'List webhook subscriptions (20 per page, newest first; X-Total header)',
    query: credentials.extend({ page }),
    answers: { 200: json(z.array(listedSubscription)), ...unauthorized },
  },
  {
    ...webhook,
    method: 'get',
    path: '/api/1.0/webhooks/{id}.json',
    summary: 'One subscription, with why the service switched it off (if it did)',
    answers: { 200: json(state), ...unauthorized, ...noSuchSubscription },
  },
  {
    ...webhook,
    method: 'patch',
    path: '/api/1.0/webhooks/{id}.json',
    summary: 'Change a subscription (e.g. is_active back to true)',
    body: { schema: patchSchema, optional: true },
    answers: {
      200: json(state),
      400: classicError('bad request (also: a refused URL)'),
      ...unauthorized,
      ...noSuchSubscription,
    },
  },
  {
    ...webhook,
    method: 'delete',
    path: '/api/1.0/webhooks/{id}.json',
    summary: 'Delete a subscription',
    answers: { 200: json(done), ...unauthorized, ...noSuchSubscription },
  },
  {
    ...webhook,
    method: 'get',
    path: '/api/1.0/webhooks/{id}/deliveries.json',
    summary: 'Delivery log of a subscription (newest first, paged; X-Total header)',
    query: credentials.extend({ page }),
    answers: { 200: json(z.array(delivery)), ...unauthorized, ...noSuchSubscription },
  },
  {
    ...webhook,
    method: 'post',
    path: '/api/1.0/webhooks/{id}/redeliver.json',
    summary: 'Send an event to the subscription again',
    query: credentials.extend({ event_id: z.string().meta({ description: 'the X-Event-Id to send again' }) }),
    answers: {
      200: json(done),
      400: classicError('bad request'),
      ...unauthorized,
      404: classicError('no such subscription or event'),
    },
  },
];
