// The signals' queue is a work queue: a review whose check throws (the database, a bug) is tried again later, its
// attempt counted, and holds up neither the rest of its batch nor the next runs.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { SIGNAL_REVIEW_QUEUE } from './store.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ SCHEDULER_POLL_MS: '200' });
});
afterAll(async () => {
  await t.services.scheduler.stop();
  await t.close();
});

it('retries a check that failed later, and checks the reviews behind it now', async () => {
  const shop = await t.createShop({ name: 'Retry BV', url: 'https://www.retry.example/' });
  const write = (email: string) =>
    t.services.reviews.create(shop.id, { name: 'Staff', email, rating: 5, language: 'en', source: 'invitation' });
  const failing = await write('one@retry.example');
  const after = await write('two@retry.example');
  const get = t.services.reviews.get.bind(t.services.reviews);
  t.services.reviews.get = (async (id: number) => {
    if (id === failing.id) throw new Error('database hiccup');
    return get(id);
  }) as typeof t.services.reviews.get;
  const queue = t.db.collection<{ _id: string; due: Date; attempts: number; lastError: string | null }>(
    SIGNAL_REVIEW_QUEUE,
  );
  try {
    await t.services.scheduler.start();
    t.services.scheduler.trigger('signals.check');
    for (let i = 0; i < 600 && (await queue.countDocuments({ attempts: 0 })) > 0; i++)
      await new Promise((r) => setTimeout(r, 100));
    const left = await queue.find({}).toArray();
    expect(left.map((i) => [i._id, i.attempts, i.lastError])).toEqual([
      [String(failing.id), 1, 'Error: database hiccup'],
    ]);
    expect(left[0]!.due.getTime()).toBeGreaterThan(Date.now());
  } finally {
    t.services.reviews.get = get;
  }
  const reports = (await (await t.admin('/admin/api/reports?status=open&limit=100')).json()).reports as {
    review_id: number;
    source: string;
    signal?: { name: string };
  }[];
  expect(reports.filter((r) => r.source === 'signal').map((r) => [r.review_id, r.signal?.name])).toEqual([
    [after.id, 'insider'],
  ]);
});
