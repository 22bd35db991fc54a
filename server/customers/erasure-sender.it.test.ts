// A webhook sender may hold a delivery it read before an erasure (a batch waiting for a free lane behind slow
// receivers) and send it after: it must send the body as the erasure rewrote it, not the copy it holds.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, withAuth, type TestApp } from '../../test/harness.js';
import { startReceiver, type Receiver } from '../../test/webhook-receiver.js';
import { dispatchEvents, queueSends, type DeliveryDeps } from '../webhooks/delivery.js';
import { ShopLanes } from '../webhooks/lanes.js';

let t: TestApp;
let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
  // The scheduler is not started: the test dispatches and sends by hand, at the moments it wants.
  t = await startTestApp({ WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' });
});
afterAll(async () => {
  await t.close();
  await receiver.close();
});

it('sends the rewritten body of a pending delivery, not a copy read before the erasure', async () => {
  const shop = await t.createShop();
  const hook = await t.fetch(withAuth('/api/1.0/webhook.json', shop), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ url: `${receiver.url}/hook`, topic: 'reviews.created' }),
  });
  receiver.secrets.set('/hook', (await hook.json()).data.secret);
  const review = await t.services.reviews.create(shop.id, {
    name: 'Marijke Vandersteen',
    email: 'marijke@example.com',
    rating: 5,
    language: 'nl',
    comment: 'Groeten, Marijke',
  });
  const lanes = new ShopLanes({ total: 2, perShop: 1 });
  const deps: DeliveryDeps & { lanes: ShopLanes } = {
    config: t.services.config,
    log: t.services.log,
    now: () => new Date(),
    events: t.services.reviewEvents,
    webhooks: t.services.webhooks,
    deliveries: t.services.webhookDeliveries,
    lanes,
  };
  await dispatchEvents(deps);
  const copies = await t.services.webhookDeliveries.due(new Date(), 10);
  expect(copies.map((d) => d.eventId)).toEqual([`${review.id}:1`]);
  expect(copies[0]!.body).toContain('Marijke');

  const res = await t.admin('/admin/api/customers?email=marijke%40example.com', { method: 'DELETE' });
  expect((await res.json()).webhook_deliveries_rewritten).toBe(1);
  await queueSends(deps, copies);
  await lanes.idle();

  const [got] = receiver.at('/hook');
  expect(got).toMatchObject({ eventId: `${review.id}:1`, verified: true });
  expect(got!.raw).not.toContain('Marijke');
  expect(JSON.parse(got!.raw)).toMatchObject({ id: review.id, name: 'Anoniem', email: '', comment: 'Groeten, […]' });
});
