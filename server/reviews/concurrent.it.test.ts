import { expect, it } from 'vitest';
import { ReviewStore } from './store.js';
import { scratchDatabase } from '../../test/scratch-db.js';

const { db } = await scratchDatabase('reviews');

it("stores concurrent first reviews of a new shop (and of a new database) without an error, and changes the shop's version", async () => {
  const reviews = new ReviewStore(db);
  await reviews.ensureIndexes();
  const created = await Promise.all(
    Array.from({ length: 30 }, (_, i) => reviews.create(42, { name: `R${i}`, email: '', rating: 5, language: 'nl' })),
  );
  expect(new Set(created.map((r) => r.id)).size).toBe(30);
  // Changed, not necessarily by 10: FerretDB's $inc is a read and a write, so concurrent increments can merge.
  expect(await reviews.shopVersion(42)).toBeGreaterThan(0);
});
