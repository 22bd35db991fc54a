// Never lost, never twice, piece by piece: an event's deliveries are created once however often dispatching is
// repeated, and a delivery's claim passes to another sender only when its sender died. The whole-process crash
// (SIGKILL mid-sending, e-mails and webhooks together) is test/crash.it.test.ts.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { MongoClient, type Db } from 'mongodb';
import { startReceiver, type Receiver } from '../../test/webhook-receiver.js';
import { testConfig } from '../config.js';
import { createLogger } from '../log.js';
import { ReviewStore } from '../reviews/store.js';
import type { Review } from '../reviews/model.js';
import { WebhookDeliveryStore } from './delivery-store.js';
import { dispatchEvents, dispatchWritten } from './delivery.js';
import { EventQueue } from './event-queue.js';
import { WebhookStore } from './store.js';

let client: MongoClient;
let db: Db;
let dbName: string;
let receiver: Receiver;

beforeAll(async () => {
  client = new MongoClient(inject('mongoUri'));
  await client.connect();
  dbName = `crash_${randomBytes(6).toString('hex')}`;
  db = client.db(dbName);
  receiver = await startReceiver();
});
afterAll(async () => {
  await db.dropDatabase().catch(() => undefined);
  await client.close();
  await receiver.close();
});

it('turns an event into its deliveries once, even when dispatching is repeated after a crash', async () => {
  const scratch = client.db(`${dbName}_dispatch`);
  try {
    const config = testConfig({ WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' });
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
    const deps = { config, log: createLogger('silent'), now: () => new Date(), events, webhooks, deliveries };
    await webhooks.create(7, { url: `${receiver.url}/x`, topic: 'reviews.created', is_active: true });
    await webhooks.create(7, { url: `${receiver.url}/y`, topic: 'reviews.created', is_active: true });
    const written: Review[] = [];
    for (let i = 0; i < 3; i++)
      written.push(await reviews.create(7, { name: `R${i}`, email: '', rating: 4, language: 'nl' }));
    expect(await dispatchEvents(deps)).toBe(3);
    // A crash after the deliveries were written but before the events left the queue (or a repair that queues
    // them again): the next run dispatches them again and creates nothing new.
    for (const review of written) await events.follow(undefined, review);
    expect(await dispatchEvents(deps)).toBe(3);
    expect(await deliveries.deliveries.countDocuments({})).toBe(6);
    expect(await events.pending(10)).toEqual([]);

    // The same through the fast path (reviews this process just wrote): only the first run creates, and sends.
    const fresh = await reviews.create(7, { name: 'Fresh', email: '', rating: 5, language: 'nl' });
    expect((await dispatchWritten(deps, [fresh])).created).toHaveLength(2);
    expect((await dispatchWritten(deps, [fresh])).created).toHaveLength(0);
    expect(await dispatchEvents(deps)).toBe(0);
    expect(await deliveries.deliveries.countDocuments({})).toBe(8);
  } finally {
    await scratch.dropDatabase();
  }
});

it('lets one of two senders claim a due delivery, and a later sender take over a claim whose sender died', async () => {
  const scratch = client.db(`${dbName}_claim`);
  try {
    const deliveries = new WebhookDeliveryStore(scratch);
    await deliveries.ensureIndexes();
    const t0 = new Date('2030-01-01T00:00:00Z');
    const due = {
      _id: '5:1:9',
      eventId: '5:1',
      subscriptionId: 9,
      shopId: 1,
      topic: 'reviews.created' as const,
      body: '{}',
      status: 'pending' as const,
      attempts: 0,
      failures: 0,
      retries: true,
      nextAttempt: t0,
      created: t0,
      completed: null,
    };
    await deliveries.createMany([due]);
    const lease = (from: Date) => new Date(from.getTime() + 15_000);
    const both = await Promise.all([deliveries.claim(due, lease(t0), t0), deliveries.claim(due, lease(t0), t0)]);
    expect(both.filter(Boolean)).toHaveLength(1);
    expect((await deliveries.deliveries.findOne({ _id: due._id }))!.nextAttempt).toEqual(lease(t0));

    // A sender that died between its claim and moving nextAttempt: the same state stays due.
    const stuck = { ...due, _id: '6:1:9', eventId: '6:1' };
    await deliveries.createMany([stuck]);
    await deliveries.claim(stuck, lease(t0), t0);
    await deliveries.deliveries.updateOne({ _id: stuck._id }, { $set: { nextAttempt: t0 } });
    expect(await deliveries.claim(stuck, lease(t0), new Date(t0.getTime() + 5_000))).toBe(false);
    const later = new Date(t0.getTime() + 16_000);
    expect(await deliveries.claim(stuck, lease(later), later)).toBe(true);
  } finally {
    await scratch.dropDatabase();
  }
});
