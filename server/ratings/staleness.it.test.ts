// Two processes sharing one database: a change made by one is seen by the other's cache within the TTL.
import { expect, it, vi } from 'vitest';
import { ReviewStore } from '../reviews/store.js';
import { RatingsReadModel } from './read-model.js';
import { scratchDatabase } from '../../test/scratch-db.js';
import { Caches } from '../cache.js';

const { db } = await scratchDatabase('stale');

it('serves another process’s change after the TTL, and keeps an unchanged list without reloading it', async () => {
  const limits = { ttlMs: 200, maxBytes: 10_000_000 };
  const writerStore = new ReviewStore(db);
  await writerStore.ensureIndexes();
  const readerStore = new ReviewStore(db);
  const reader = new RatingsReadModel(readerStore, new Caches(limits).cache('ratings'));

  await writerStore.create(7, { name: 'A', email: 'a@example.com', rating: 4, language: 'en' });
  expect((await reader.summary(7)).amount).toBe(1);

  const created = await writerStore.create(7, { name: 'B', email: 'b@example.com', rating: 2, language: 'en' });
  expect((await reader.summary(7)).amount).toBe(1); // cached, within the TTL
  await new Promise((r) => setTimeout(r, 250));
  expect((await reader.summary(7)).amount).toBe(2);

  // Unchanged after the next TTL: the same cached object comes back (no reload).
  const before = await reader.page(7, { offset: 0, limit: 10 });
  await new Promise((r) => setTimeout(r, 250));
  const after = await reader.page(7, { offset: 0, limit: 10 });
  expect(after.ratings[0]).toBe(before.ratings[0]);

  await writerStore.softDelete(created.id);
  await new Promise((r) => setTimeout(r, 250));
  expect((await reader.summary(7)).amount).toBe(1);
});

it('re-reads the public part at most once a minute when only the all-writes counter moved (an older process wrote)', async () => {
  vi.useFakeTimers({ toFake: ['Date'] });
  try {
    const limits = { ttlMs: 200, maxBytes: 10_000_000 };
    const writer = new ReviewStore(db);
    const reader = new RatingsReadModel(new ReviewStore(db), new Caches(limits).cache('ratings'));
    await writer.create(8, { name: 'A', email: 'a@example.com', rating: 4, language: 'en' });
    expect((await reader.summary(8)).amount).toBe(1);

    // A process of the version before the public counter publishes a review: it moves only `v`.
    await writer.create(8, { name: 'B', email: 'b@example.com', rating: 2, language: 'en' });
    await db.collection<{ _id: number; p: number }>('review_versions').updateOne({ _id: 8 }, { $inc: { p: -1 } });
    vi.advanceTimersByTime(1_000);
    expect((await reader.summary(8)).amount).toBe(1);
    vi.advanceTimersByTime(60_000);
    expect((await reader.summary(8)).amount).toBe(2);
  } finally {
    vi.useRealTimers();
  }
});
