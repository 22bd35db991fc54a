// Never lost, never twice: the real service process is killed with SIGKILL in the middle of sending 50 webhook
// deliveries and started again; every event must arrive at least once, and a repeat only under its own X-Event-Id.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { MongoClient, type Db } from 'mongodb';
import { startReceiver, type Receiver } from '../../test/webhook-receiver.js';
import { testConfig } from '../config.js';
import { createLogger } from '../log.js';
import { ReviewStore } from '../reviews/store.js';
import { WebshopStore } from '../webshops/store.js';
import { WebhookDeliveryStore } from './deliveries.js';
import { dispatchEvents, dispatchWritten } from './delivery.js';
import { WebhookStore } from './store.js';

let client: MongoClient;
let db: Db;
let dbName: string;
let receiver: Receiver;
const children: ChildProcess[] = [];

beforeAll(async () => {
  client = new MongoClient(inject('mongoUri'));
  await client.connect();
  dbName = `crash_${randomBytes(6).toString('hex')}`;
  db = client.db(dbName);
  receiver = await startReceiver();
});
afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await db.dropDatabase().catch(() => undefined);
  await client.close();
  await receiver.close();
});

/** The service as `npm run dev` starts it, against the test database; its output is kept for a failure message. */
function startService(): { child: ChildProcess; output: () => string } {
  let output = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    // Not the test runner's environment: vitest sets variables (BASE_URL=/) that the service would read.
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: 'test',
      MONGODB_URI: inject('mongoUri'),
      MONGODB_DB: dbName,
      PORT: '0',
      ADMIN_TOKEN: 'crash-test-admin-token-0123456789',
      DEMO_SHOP: '0',
      LOG_LEVEL: 'warn',
      ROLE: 'all',
      SCHEDULER_POLL_MS: '200',
      JOB_LOCK_MS: '5000',
      WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
      WEBHOOK_RETRY_SCHEDULE: '1,2,3',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  children.push(child);
  return { child, output: () => output };
}

const exited = (child: ChildProcess) =>
  child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise<void>((ok) => child.once('exit', () => ok()));

it('turns an event into its deliveries once, even when dispatching is repeated after a crash', async () => {
  const scratch = client.db(`${dbName}_dispatch`);
  try {
    const config = testConfig({ WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' });
    const reviews = new ReviewStore(scratch);
    const webhooks = new WebhookStore(scratch);
    const deliveries = new WebhookDeliveryStore(scratch);
    await Promise.all([reviews.ensureIndexes(), webhooks.ensureIndexes(), deliveries.ensureIndexes()]);
    const deps = { config, log: createLogger('silent'), now: () => new Date(), reviews, webhooks, deliveries };
    await webhooks.create(7, { url: `${receiver.url}/x`, topic: 'reviews.created', is_active: true });
    await webhooks.create(7, { url: `${receiver.url}/y`, topic: 'reviews.created', is_active: true });
    for (let i = 0; i < 3; i++) await reviews.create(7, { name: `R${i}`, email: '', rating: 4, language: 'nl' });
    expect(await dispatchEvents(deps)).toBe(3);
    // A crash after the deliveries were written but before the events were marked: the next run does it again.
    await reviews.events.updateMany({}, { $set: { dispatched: false } });
    expect(await dispatchEvents(deps)).toBe(3);
    expect(await deliveries.deliveries.countDocuments({})).toBe(6);
    expect(await reviews.events.countDocuments({ dispatched: false })).toBe(0);

    // The same through the fast path (reviews this process just wrote): only the first run creates, and sends.
    const written = await reviews.create(7, { name: 'Fresh', email: '', rating: 5, language: 'nl' });
    expect((await dispatchWritten(deps, [written])).created).toHaveLength(2);
    expect((await dispatchWritten(deps, [written])).created).toHaveLength(0);
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
      _id: '5:1:9', eventId: '5:1', subscriptionId: 9, shopId: 1, topic: 'reviews.created' as const, body: '{}',
      status: 'pending' as const, attempts: 0, failures: 0, retries: true, nextAttempt: t0, created: t0, completed: null,
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

it('delivers every one of 50 events at least once across a SIGKILL mid-sending, duplicates only under the same X-Event-Id', async () => {
  const config = testConfig();
  const webshops = new WebshopStore(db, config.cache);
  const reviews = new ReviewStore(db);
  const webhooks = new WebhookStore(db);
  await Promise.all([webshops.ensureIndexes(), reviews.ensureIndexes(), webhooks.ensureIndexes()]);
  const shop = await webshops.create({ name: 'Crash Shop', url: 'https://crash.example/' });
  const subscription = await webhooks.create(shop.id, { url: `${receiver.url}/crash`, topic: 'reviews.created', is_active: true });
  receiver.secrets.set('/crash', subscription.secret);
  // Slow answers: when the process dies, some requests are in flight.
  receiver.responders.set('/crash', () => ({ status: 200, delayMs: 150 }));

  // 50 events pending while no service runs.
  const ids: number[] = [];
  for (let i = 0; i < 50; i++) {
    ids.push((await reviews.create(shop.id, { name: `Reviewer ${i}`, email: `r${i}@example.com`, rating: 5, language: 'nl' })).id);
  }
  // Five of them as a crash between the review write and its event write leaves them: no event, pendingEvent set.
  const lost = ids.slice(45);
  await reviews.events.deleteMany({ reviewId: { $in: lost } });
  await reviews.collection.updateMany({ id: { $in: lost } }, { $set: { pendingEvent: 'reviews.created' } });
  const expected = new Set(ids.map((id) => `${id}:1`));

  const first = startService();
  const running = (child: ChildProcess) => {
    if (child.exitCode !== null) throw new Error('the service stopped by itself');
    return true;
  };
  await receiver.waitFor(() => running(first.child) && receiver.at('/crash').length >= 10, 30_000).catch((err: Error) => {
    throw new Error(`${err.message}\n${first.output()}`);
  });
  first.child.kill('SIGKILL');
  await exited(first.child);
  const beforeRestart = receiver.at('/crash').length;
  expect(beforeRestart).toBeLessThan(50);

  const second = startService();
  const eventIds = () => new Set(receiver.at('/crash').map((r) => r.eventId));
  // Done when every delivery got its 2xx: those in flight at the kill are sent again once their lease (15 s) ends.
  const deliveries = db.collection('webhook_deliveries');
  let delivered = 0;
  const deadline = Date.now() + 60_000;
  while (delivered < 50) {
    if (Date.now() > deadline || !running(second.child)) {
      throw new Error(`${delivered} of 50 delivered, ${eventIds().size} event ids received\n${second.output()}`);
    }
    await new Promise((r) => setTimeout(r, 200));
    delivered = await deliveries.countDocuments({ status: 'delivered' });
  }
  second.child.kill('SIGTERM');
  await exited(second.child);

  const got = receiver.at('/crash');
  expect(got.every((r) => r.verified && r.topic === 'reviews.created')).toBe(true);
  expect(eventIds()).toEqual(expected);
  // Only what was in flight when the process died is sent twice: at most 8 requests from each of the two senders.
  expect(got.length - 50).toBeLessThanOrEqual(16);
  // A repeat is the same event: one body per X-Event-Id, one X-Event-Id per body.
  const bodiesById = new Map<string, Set<string>>();
  const idsByBody = new Map<string, Set<string>>();
  for (const r of got) {
    bodiesById.set(r.eventId!, (bodiesById.get(r.eventId!) ?? new Set()).add(r.raw));
    idsByBody.set(r.raw, (idsByBody.get(r.raw) ?? new Set()).add(r.eventId!));
  }
  expect([...bodiesById.values()].every((bodies) => bodies.size === 1)).toBe(true);
  expect([...idsByBody.values()].every((eventIds) => eventIds.size === 1)).toBe(true);
  for (const r of got) expect(JSON.parse(r.raw).id).toBe(Number(r.eventId!.split(':')[0]));

  // Each event's delivery was created exactly once.
  expect(await deliveries.countDocuments({})).toBe(50);
}, 120_000);
