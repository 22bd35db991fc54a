import { beforeAll, expect, it } from 'vitest';
import { GroupInsert } from './group-insert.js';
import { scratchDatabase } from '../../test/scratch-db.js';

const { db } = await scratchDatabase('group');

beforeAll(async () => {
  await db.collection('things').createIndex({ key: 1 }, { unique: true });
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
  outcomes.forEach((o, n) => {
    expect(stored.has(n)).toBe(o === 'inserted');
  });
});

it('an insert alone is written at once', async () => {
  const writes = new GroupInsert(db.collection<{ key: string }>('things'));
  expect(await writes.insert({ key: 'alone' })).toBe('inserted');
  expect(await db.collection('things').countDocuments({ key: 'alone' })).toBe(1);
});
