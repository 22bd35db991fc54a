// Review events queued by a version before the work queue (`events`, in its two old shapes) move to the work queue
// `webhook_events` at start, and each is delivered once: a dispatched one, or one whose review is gone, is dropped,
// and two processes starting at once queue nothing twice.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, withAuth, type TestApp } from '../../test/harness.js';
import { queuedEvents } from '../../test/webhook-events.js';
import { startReceiver, type Receiver } from '../../test/webhook-receiver.js';
import type { Review } from '../reviews/model.js';
import { dispatchEvents, queueDue, type DeliveryDeps } from '../webhooks/delivery.js';
import { ShopLanes } from '../webhooks/lanes.js';
import { LEGACY_EVENT_QUEUE, migrateWebhookEvents } from './webhook-events.js';

let t: TestApp;
let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
  // The scheduler is not started: the test migrates, dispatches and sends by hand.
  t = await startTestApp({ WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' });
});
afterAll(async () => {
  await t.close();
  await receiver.close();
});

it('moves the old events (both shapes), drops the dispatched ones, and each is delivered once', async () => {
  const shop = await t.createShop();
  const hook = await t.fetch(withAuth('/api/1.0/webhook.json', shop), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ url: `${receiver.url}/moved`, topic: 'reviews.created' }),
  });
  receiver.secrets.set('/moved', (await hook.json()).data.secret);
  const { reviews, reviewEvents } = t.services;
  const write = (name: string) => reviews.create(shop.id, { name, email: '', rating: 5, language: 'nl' });
  const [snapshot, flagged, dispatched] = [await write('Snap'), await write('Flag'), await write('Done')];
  // The old code queued them, not the work queue.
  await reviewEvents.dispatched([snapshot, flagged, dispatched].map((r) => `${r.id}:1`));
  const old = (r: Pick<Review, 'id'>, extra: object) => ({
    _id: `${r.id}:1`,
    shopId: shop.id,
    reviewId: r.id,
    version: 1,
    topic: 'reviews.created',
    created: new Date(Date.now() - 60_000),
    ...extra,
  });
  await t.db.collection(LEGACY_EVENT_QUEUE).insertMany([
    // The last old shape: the review as written.
    old(snapshot, { review: snapshot }),
    // The shape before: a flag, the review read when dispatched.
    old(flagged, { dispatched: false }),
    old(dispatched, { dispatched: true }),
    // Its review is gone.
    old({ id: 987_654 }, { dispatched: false }),
  ] as never[]);

  // Two processes starting at once.
  const moved = await Promise.all([migrateWebhookEvents(t.services), migrateWebhookEvents(t.services)]);
  expect(moved[0] + moved[1]).toBe(2);
  expect(await t.db.collection(LEGACY_EVENT_QUEUE).countDocuments()).toBe(0);
  expect((await queuedEvents(t.db)).map((e) => [e.reviewId, e.review.name])).toEqual([
    [snapshot.id, 'Snap'],
    [flagged.id, 'Flag'],
  ]);
  expect(await migrateWebhookEvents(t.services)).toBe(0);

  const lanes = new ShopLanes({ total: 2, perShop: 1 });
  const deps: DeliveryDeps & { lanes: ShopLanes } = {
    config: t.services.config,
    log: t.services.log,
    now: () => new Date(),
    events: reviewEvents,
    webhooks: t.services.webhooks,
    deliveries: t.services.webhookDeliveries,
    lanes,
  };
  expect(await dispatchEvents(deps)).toBe(2);
  await queueDue(deps);
  await lanes.idle();
  // A run after: nothing is left to dispatch or send.
  expect(await dispatchEvents(deps)).toBe(0);
  await queueDue(deps);
  await lanes.idle();
  const got = receiver.at('/moved');
  expect(got.map((r) => [r.eventId, r.verified]).sort()).toEqual(
    [
      [`${snapshot.id}:1`, true],
      [`${flagged.id}:1`, true],
    ].sort(),
  );
  expect(await reviewEvents.size()).toBe(0);
});
