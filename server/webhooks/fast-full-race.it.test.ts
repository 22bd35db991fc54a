// The fast path (reviews this process just wrote) and a full run (the event queue) may dispatch the same event at
// the same moment: a full run takes every queued event, including one whose fast path is under way. Each makes the
// event's delivery in two inserts (its due entry, then the delivery), so one may win the entry and the other the
// delivery. Seen in the topology benchmark: one delivery took 15 s (the fast path's lease: WEBHOOK_TIMEOUT_MS + 5 s),
// when the fast path's entry (due when its lease ends) met the full run's delivery (due now, which the full run
// sends only when its entry says so, and the fast path not at all, as it did not make it). Also here: a fast path
// that fails after making its deliveries must still send them rather than leave them leased to nobody.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { MongoClient, type Db } from 'mongodb';
import { startReceiver, type Receiver } from '../../test/webhook-receiver.js';
import { testConfig } from '../config.js';
import { createLogger } from '../log.js';
import { ReviewStore } from '../reviews/store.js';
import { WebhookDeliveryStore } from './delivery-store.js';
import { dispatchEvents, queueDue, queueWritten } from './delivery.js';
import { EventQueue } from './event-queue.js';
import { ShopLanes } from './lanes.js';
import { WebhookStore } from './store.js';

let client: MongoClient;
let dbName: string;
let receiver: Receiver;
const SHOP = 7;

beforeAll(async () => {
  client = new MongoClient(inject('mongoUri'));
  await client.connect();
  dbName = `race_${randomBytes(6).toString('hex')}`;
  receiver = await startReceiver();
});
afterAll(async () => {
  await client.close();
  await receiver.close();
});

async function setUp(name: string): Promise<{ scratch: Db; reviews: ReviewStore } & ReturnType<typeof depsOf>> {
  const scratch = client.db(`${dbName}_${name}`);
  const reviews = new ReviewStore(scratch);
  const webhooks = new WebhookStore(scratch);
  const deliveries = new WebhookDeliveryStore(scratch);
  const events = new EventQueue(scratch);
  reviews.follow(events);
  await Promise.all([
    reviews.ensureIndexes(),
    webhooks.ensureIndexes(),
    deliveries.ensureIndexes(),
    events.ensureIndexes(),
  ]);
  const hook = await webhooks.create(SHOP, {
    url: `${receiver.url}/${name}`,
    topic: 'reviews.created',
    is_active: true,
  });
  receiver.secrets.set(`/${name}`, hook.secret);
  return { scratch, reviews, ...depsOf(webhooks, deliveries, events) };
}

function depsOf(webhooks: WebhookStore, deliveries: WebhookDeliveryStore, events: EventQueue) {
  const deps = {
    config: testConfig({ WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' }),
    log: createLogger('silent'),
    now: () => new Date(),
    events,
    webhooks,
    deliveries,
    lanes: new ShopLanes({ total: 8, perShop: 2 }),
  };
  return { deps };
}

it('sends at once, and once, a delivery whose entry the fast path made and whose delivery a full run made', async () => {
  const { scratch, reviews, deps } = await setUp('split');
  try {
    // The fast path's delivery insert waits until the full run has made its own (the fast path's entry is in).
    const inserts = deps.deliveries.deliveries;
    const insertMany = inserts.insertMany.bind(inserts);
    let fastAtInsert!: () => void;
    const fastReached = new Promise<void>((resolve) => (fastAtInsert = resolve));
    let letFastOn!: () => void;
    const fullDone = new Promise<void>((resolve) => (letFastOn = resolve));
    inserts.insertMany = (async (
      docs: Parameters<typeof insertMany>[0],
      options?: Parameters<typeof insertMany>[1],
    ) => {
      const leased = [...docs].some((d) => d.nextAttempt.getTime() > Date.now() + 1000);
      if (leased) {
        fastAtInsert();
        await fullDone;
      }
      return insertMany(docs, options);
    }) as typeof inserts.insertMany;

    const review = await reviews.create(SHOP, { name: 'Ann', email: '', rating: 5, language: 'en' });
    const fast = queueWritten(deps, [review]);
    await fastReached;
    // The full run, as webhooks.deliver runs it: the queued event, then what is due.
    expect(await dispatchEvents(deps)).toBe(1);
    await queueDue(deps);
    letFastOn();
    await fast;
    await deps.lanes.idle();

    expect(receiver.at('/split').map((r) => [r.eventId, r.verified])).toEqual([[`${review.id}:1`, true]]);
    // Nothing left for a later run to send again.
    expect(await deps.deliveries.due(new Date(Date.now() + 3_600_000), 10)).toEqual([]);
  } finally {
    await scratch.dropDatabase();
  }
});

it('sends the deliveries a fast path made even when taking their event off the queue fails', async () => {
  const { scratch, reviews, deps } = await setUp('unfinished');
  try {
    const dispatched = deps.events.dispatched.bind(deps.events);
    let failures = 1;
    deps.events.dispatched = async (ids, holder) => {
      if (failures-- > 0) throw new Error('SQLITE_BUSY');
      return dispatched(ids, holder);
    };
    const review = await reviews.create(SHOP, { name: 'Bo', email: '', rating: 4, language: 'en' });
    await expect(queueWritten(deps, [review])).rejects.toThrow('SQLITE_BUSY');
    await deps.lanes.idle();
    expect(receiver.at('/unfinished').map((r) => r.eventId)).toEqual([`${review.id}:1`]);

    // The event left on the queue is dispatched again by the next full run: nothing new is made, nothing sent twice.
    expect(await dispatchEvents(deps)).toBe(1);
    await queueDue(deps);
    await deps.lanes.idle();
    expect(receiver.at('/unfinished')).toHaveLength(1);
    expect(await deps.events.size()).toBe(0);
  } finally {
    await scratch.dropDatabase();
  }
});
