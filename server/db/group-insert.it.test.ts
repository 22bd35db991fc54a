import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { MongoClient, type Db } from 'mongodb';
import { GroupInsert } from './group-insert.js';

let client: MongoClient;
let db: Db;
beforeAll(async () => {
  client = new MongoClient(inject('mongoUri'));
  await client.connect();
  db = client.db(`group_${randomBytes(6).toString('hex')}`);
  await db.collection('things').createIndex({ key: 1 }, { unique: true });
});
afterAll(async () => {
  await db.dropDatabase();
  await client.close();
});

it('writes concurrent inserts together and tells each caller whether its own document was a duplicate', async () => {
  const things = db.collection<{ key: string; n: number }>('things');
  const writes = new GroupInsert(things);
  // 60 callers at once, with keys a0…a29 each sent twice: every key is written once, the other copy is a duplicate.
  const outcomes = await Promise.all(Array.from({ length: 60 }, (_, n) => writes.insert({ key: `a${n % 30}`, n })));
  expect(outcomes.filter((o) => o === 'inserted')).toHaveLength(30);
  expect(outcomes.filter((o) => o === 'duplicate')).toHaveLength(30);
  expect(await things.countDocuments({})).toBe(30);
  // Each caller told "inserted" owns the stored document.
  const stored = new Set((await things.find({}).toArray()).map((t) => t.n));
  outcomes.forEach((o, n) => expect(stored.has(n)).toBe(o === 'inserted'));
});

it('an insert alone is written at once', async () => {
  const writes = new GroupInsert(db.collection<{ key: string }>('things'));
  expect(await writes.insert({ key: 'alone' })).toBe('inserted');
  expect(await db.collection('things').countDocuments({ key: 'alone' })).toBe(1);
});
