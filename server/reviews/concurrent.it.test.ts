import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { MongoClient, type Db } from 'mongodb';
import { ReviewStore } from './store.js';

let client: MongoClient;
let db: Db;
beforeAll(async () => {
  client = new MongoClient(inject('mongoUri'));
  await client.connect();
  db = client.db(`reviews_${randomBytes(6).toString('hex')}`);
});
afterAll(async () => {
  await db.dropDatabase();
  await client.close();
});

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
