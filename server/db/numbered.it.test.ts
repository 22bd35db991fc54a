import { beforeAll, expect, it } from 'vitest';
import { insertNumbered } from './index.js';
import { scratchDatabase } from '../../test/scratch-db.js';

const { db } = await scratchDatabase('numbered');

beforeAll(async () => {
  await db.collection('things').createIndex({ id: 1 }, { unique: true });
});

it('numbers concurrent first inserts into a new sequence without an error, each with its own id', async () => {
  const things = db.collection<{ id: number }>('things');
  const created = await Promise.all(
    Array.from({ length: 10 }, () => insertNumbered(db, things, 'things', (id) => ({ id }))),
  );
  expect(new Set(created.map((t) => t.id)).size).toBe(10);
  expect(await things.countDocuments({})).toBe(10);
});
