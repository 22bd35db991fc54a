// How many webhook subscriptions a shop may have (WEBHOOK_MAX_PER_SHOP), and what that many costs when all of its
// receivers hang: the shop's own deliveries wait their turn in its two lanes (cap × WEBHOOK_TIMEOUT_MS ÷ 2 at
// worst), other shops' deliveries do not wait at all, not even when the shop's deliveries fill the waiting room.
// Real receivers; order and counts, no clocks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, withAuth, type TestApp } from '../../test/harness.js';
import { startReceiver, type Received, type Receiver } from '../../test/webhook-receiver.js';
import type { Webshop } from '../webshops/store.js';
import type { WebhookDelivery } from './delivery-store.js';
import { PARALLEL_SENDS, PARALLEL_SENDS_PER_SHOP, queueSends } from './delivery.js';
import { ShopLanes } from './lanes.js';
import type { WebhookSubscription } from './store.js';

async function subscribe(t: TestApp, as: Webshop, url: string) {
  const res = await t.fetch(withAuth('/api/1.0/webhook.json', as), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ url, topic: 'reviews.created' }),
  });
  return { status: res.status, body: await res.json() };
}

describe('WEBHOOK_MAX_PER_SHOP set lower', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ WEBHOOK_MAX_PER_SHOP: '5' });
  });
  afterAll(() => t.close());

  it('refuses the subscription past it in the usual error format', async () => {
    const shop = await t.createShop();
    for (let i = 0; i < 5; i++) expect((await subscribe(t, shop, `https://hooks.example/${i}`)).status).toBe(200);
    expect(await subscribe(t, shop, 'https://hooks.example/sixth')).toEqual({
      status: 400,
      body: {
        status: 'error',
        message:
          'A webshop can have at most 5 webhook subscriptions: delete one (DELETE /api/1.0/webhooks/{id}.json) before adding another.',
      },
    });
    expect(await t.services.webhooks.countForShop(shop.id)).toBe(5);
  });

  it('holds the limit when a shop subscribes many times at once', async () => {
    const shop = await t.createShop();
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => subscribe(t, shop, `https://hooks.example/burst-${i}`)),
    );
    const count = await t.services.webhooks.countForShop(shop.id);
    expect(count).toBeLessThanOrEqual(5);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(count);
    for (const refused of answers.filter((a) => a.status !== 200)) {
      expect(refused).toEqual({
        status: 400,
        body: { status: 'error', message: expect.stringMatching(/^A webshop can have at most 5 /) },
      });
    }
  });

  it('keeps and lists the subscriptions of a shop that had more before it was lowered, and adds none', async () => {
    const shop = await t.createShop();
    for (let i = 0; i < 7; i++) {
      await t.services.webhooks.create(shop.id, {
        url: `https://hooks.example/${i}`,
        topic: 'reviews.created',
        is_active: true,
      });
    }
    expect((await subscribe(t, shop, 'https://hooks.example/more')).body.message).toMatch(/at most 5 /);
    const list = await t.fetch(withAuth('/api/1.0/webhooks.json', shop));
    expect(list.headers.get('x-total')).toBe('7');
    expect(await list.json()).toHaveLength(7);
  });
});

describe('a shop whose receivers all hang, at the default cap', () => {
  /** Short, to keep the test quick; long beside the few milliseconds the other shop's delivery takes. */
  const TIMEOUT_MS = 3000;
  let t: TestApp;
  let receiver: Receiver;

  beforeAll(async () => {
    receiver = await startReceiver();
    t = await startTestApp({ WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS) });
    await t.services.scheduler.start();
  });
  afterAll(async () => {
    // Stopping closes the lanes: what waits is dropped, the hanging requests end at their timeout. The receiver
    // then closes whatever is left open.
    await t.services.scheduler.stop();
    await receiver.close();
    await t.close();
  });

  const webhookIds = new Map<string, number>();
  async function subscribeTo(as: Webshop, path: string) {
    const { status, body } = await subscribe(t, as, receiver.url + path);
    expect(status).toBe(200);
    receiver.secrets.set(path, body.data.secret);
    webhookIds.set(path, body.data.webhook_id);
  }

  async function importReview(as: Webshop): Promise<number> {
    const res = await t.admin(`/admin/api/webshops/${as.id}/reviews`, {
      method: 'POST',
      json: { name: 'Jane', email: 'jane@example.com', rating: 5, comment: 'Fine', country: 'NL' },
    });
    expect(res.status).toBe(201);
    return (await res.json()).id;
  }

  const hangingRequests = () => receiver.received.filter((r) => r.path.startsWith('/hang/'));

  let hanging: Webshop;
  // biome-ignore lint/suspicious/noDuplicateTestHooks: runs after the hook above (the app is up) with its own 120 s timeout for 100 subscriptions
  beforeAll(async () => {
    hanging = await t.createShop({ name: 'Hanging Receivers' });
    for (let i = 0; i < 100; i++) {
      await subscribeTo(hanging, `/hang/${i}`);
      receiver.responders.set(`/hang/${i}`, () => 'hang');
    }
  }, 120_000);

  it("delivers another shop's event while all 100 of the shop's receivers hang, before any of them is given up", async () => {
    const other = await t.createShop({ name: 'Answering Receiver' });
    await subscribeTo(other, '/other');

    const slowEvent = `${await importReview(hanging)}:1`;
    // The shop's first requests are out and hang, one in each of its lanes.
    await receiver.waitFor(() => hangingRequests().length === PARALLEL_SENDS_PER_SHOP);
    const otherEvent = `${await importReview(other)}:1`;
    await receiver.waitFor(() => receiver.at('/other').length === 1);
    const delivered = receiver.at('/other')[0]!;
    expect(delivered).toMatchObject({ eventId: otherEvent, verified: true });

    // When it arrived, the hanging shop had its two requests open, and not one of its requests had ended.
    const before = hangingRequests().filter((r) => r.seq < delivered.seq);
    expect(before.map((r) => r.eventId)).toEqual([slowEvent, slowEvent]);
    expect(hangingRequests().filter((r) => r.endSeq !== undefined && r.endSeq < delivered.seq)).toEqual([]);
    // Its event's 100 deliveries are all still to do.
    const pending = await t.db
      .collection('webhook_deliveries')
      .countDocuments({ shopId: hanging.id, status: 'pending' });
    expect(pending).toBe(100);

    // The shop's own next requests wait for its lanes: each starts only after one of the first two was given up
    // (at WEBHOOK_TIMEOUT_MS). So its deliveries take turns two at a time, a timeout each at worst.
    await receiver.waitFor(() => hangingRequests().length === PARALLEL_SENDS_PER_SHOP + 2, TIMEOUT_MS * 10);
    const [first, second, third, fourth] = hangingRequests() as [Received, Received, Received, Received];
    const ends = [first.endSeq!, second.endSeq!];
    expect(third.seq).toBeGreaterThan(Math.min(...ends));
    expect(fourth.seq).toBeGreaterThan(Math.max(...ends));
    const log = async () => (await t.services.webhookDeliveries.logPage(webhookIds.get(first.path)!, 0, 1)).items;
    await expect
      .poll(log)
      .toMatchObject([{ event_id: slowEvent, status: null, error: `timed out after ${TIMEOUT_MS / 1000} s` }]);
  }, 120_000);

  it("takes another shop's delivery into the lanes however many of the shop's deliveries wait", async () => {
    // Lanes of this test's own, fed as the senders feed them: eleven events' worth of the hanging shop's deliveries
    // (more than the 1000 a process keeps waiting for lanes), then one of another shop.
    const lanes = new ShopLanes({ total: PARALLEL_SENDS, perShop: PARALLEL_SENDS_PER_SHOP });
    const { config, log, now, reviewEvents: events, webhooks, webhookDeliveries: deliveries } = t.services;
    const deps = { config, log, now, events, webhooks, deliveries, lanes };
    const hooks = (await webhooks.page(hanging.id, 0, 100)).items;
    const piled = Array.from({ length: 11 }, (_, event) =>
      hooks.map((hook) => leasedDelivery(`${700_000 + event}:1`, hook)),
    );
    const other = await t.createShop({ name: 'Answering Meanwhile' });
    await subscribeTo(other, '/meanwhile');
    const [hook] = (await webhooks.page(other.id, 0, 1)).items;
    try {
      await queueSends(deps, piled.flat(), { leased: true, subscriptions: hooks });
      expect(
        await queueSends(deps, [leasedDelivery('799999:1', hook!)], { leased: true, subscriptions: [hook!] }),
      ).toBe(1);
      await receiver.waitFor(() => receiver.at('/meanwhile').length === 1);
      expect(receiver.at('/meanwhile')[0]).toMatchObject({ eventId: '799999:1', verified: true });
    } finally {
      await lanes.close();
    }

    /** A delivery as the fast path makes it: leased to this sender, to be sent at once. */
    function leasedDelivery(eventId: string, subscription: WebhookSubscription): WebhookDelivery {
      const at = now();
      return {
        _id: `${eventId}:${subscription.id}`,
        eventId,
        subscriptionId: subscription.id,
        shopId: subscription.shopId,
        topic: 'reviews.created',
        body: JSON.stringify({ id: eventId }),
        status: 'pending',
        attempts: 0,
        failures: 0,
        retries: true,
        nextAttempt: new Date(at.getTime() + config.webhooks.timeoutMs + 5_000),
        created: at,
        completed: null,
      };
    }
  }, 120_000);
});
