import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { MongoClient, type Db } from 'mongodb';
import { insertNumbered } from './index.js';

let client: MongoClient;
let db: Db;
beforeAll(async () => {
  client = new MongoClient(inject('mongoUri'));
  await client.connect();
  db = client.db(`numbered_${randomBytes(6).toString('hex')}`);
  await db.collection('things').createIndex({ id: 1 }, { unique: true });
});
afterAll(async () => {
  await db.dropDatabase();
  await client.close();
});

it('numbers concurrent first inserts into a new sequence without an error, each with its own id', async () => {
  const things = db.collection<{ id: number }>('things');
  const created = await Promise.all(Array.from({ length: 10 }, () => insertNumbered(db, things, 'things', (id) => ({ id }))));
  expect(new Set(created.map((t) => t.id)).size).toBe(10);
  expect(await things.countDocuments({})).toBe(10);
});
