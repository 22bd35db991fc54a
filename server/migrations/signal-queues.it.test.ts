// Reviews and network notes queued for the signals by a version before the work queues (`signal_queue`,
// `signal_network_queue`) move to their work queues at start, and the worker checks each once: the signal is raised
// once, the note kept once, and two processes starting at once queue nothing twice.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { dayKey } from '../signals/rules.js';
import { SIGNAL_NETWORK_QUEUE, SIGNAL_REVIEW_QUEUE } from '../signals/store.js';
import { LEGACY_SIGNAL_QUEUES, migrateSignalQueues } from './signal-queues.js';

let t: TestApp;
beforeAll(async () => {
  // The scheduler starts once the old entries are moved: the worker must not check the reviews before.
  t = await startTestApp({ SCHEDULER_POLL_MS: '200' });
});
afterAll(async () => {
  await t.services.scheduler.stop();
  await t.close();
});

const queued = async () =>
  (await t.db.collection(SIGNAL_REVIEW_QUEUE).countDocuments()) +
  (await t.db.collection(SIGNAL_NETWORK_QUEUE).countDocuments());

it('moves the old entries, and the worker checks each once', async () => {
  const shop = await t.createShop({ name: 'Old queue BV', url: 'https://www.oldqueue.example/' });
  const review = await t.services.reviews.create(shop.id, {
    name: 'Staff',
    email: 'staff@oldqueue.example',
    rating: 5,
    language: 'en',
    comment: 'Fine',
    source: 'invitation',
    verified: true,
  });
  // The old code queued it, not the work queues.
  await t.db.collection(SIGNAL_REVIEW_QUEUE).deleteMany({});
  await t.db.collection(SIGNAL_NETWORK_QUEUE).deleteMany({});
  const at = new Date(Date.now() - 60_000);
  await t.db
    .collection(LEGACY_SIGNAL_QUEUES.reviews)
    .insertOne({ _id: review.id, shopId: shop.id, imported: false, at } as never);
  await t.db
    .collection(LEGACY_SIGNAL_QUEUES.networks)
    .insertOne({ _id: review.id, shopId: shop.id, key: 'k'.repeat(43), family: 'chrome', at } as never);

  const moved = await Promise.all([migrateSignalQueues(t.services), migrateSignalQueues(t.services)]);
  expect(moved[0] + moved[1]).toBe(2);
  expect(await queued()).toBe(2);
  expect(await t.db.collection(LEGACY_SIGNAL_QUEUES.reviews).countDocuments()).toBe(0);
  expect(await t.db.collection(LEGACY_SIGNAL_QUEUES.networks).countDocuments()).toBe(0);
  expect(await migrateSignalQueues(t.services)).toBe(0);

  await t.services.scheduler.start();
  t.services.scheduler.trigger('signals.check');
  for (let i = 0; i < 600 && (await queued()) > 0; i++) await new Promise((r) => setTimeout(r, 100));
  expect(await queued()).toBe(0);
  const reports = (await (await t.admin('/admin/api/reports?status=open&limit=100')).json()).reports as {
    review_id: number;
    source: string;
    signal?: { name: string };
  }[];
  expect(reports.filter((r) => r.source === 'signal').map((r) => [r.review_id, r.signal?.name])).toEqual([
    [review.id, 'insider'],
  ]);
  const bucket = await t.db
    .collection<{ _id: string; entries: { review: number }[] }>('signal_networks')
    .findOne({ _id: `${shop.id}:${dayKey(at)}` });
  expect(bucket?.entries.map((e) => e.review)).toEqual([review.id]);
});
