// The versioned write (versioned.ts): a writer that another one overtook reads again and lands over it (no update
// is lost), and a write that keeps losing stops after its attempts with ConcurrentChangeError, which the error
// middleware answers as 409 `conflict`, never a 500. The interleavings are made by the test, step by step: writers
// truly at once are not safe on FerretDB 1.24: its conditional update is a query, then a write, so two writers of
// the same version can both match (MongoDB's is atomic).
import { randomBytes } from 'node:crypto';
import Koa from 'koa';
import { expect, it } from 'vitest';
import { scratchDatabase } from '../../test/scratch-db.js';
import { errorHandler } from '../http/middleware.js';
import { createLogger } from '../log.js';
import { ConcurrentChangeError, versionedUpdate } from './versioned.js';

const { db } = await scratchDatabase('versioned');

interface Counter {
  _id: string;
  version: number;
  n: number;
  writers: string[];
}

async function counter() {
  const collection = db.collection<Counter>(`counters_${randomBytes(4).toString('hex')}`);
  await collection.insertOne({ _id: 'c', version: 1, n: 0, writers: [] });
  return { collection, read: () => collection.findOne({ _id: 'c' }) };
}

it('has a writer that read before another one landed read again and land over it: no update is lost', async () => {
  const { collection, read } = await counter();
  const decisions: string[] = [];
  /** Adds `writer` to the counter; `meanwhile` runs after its first read, before its write (another writer). */
  const add = (writer: string, meanwhile?: () => Promise<unknown>) =>
    versionedUpdate(
      collection,
      read,
      async (current) => {
        decisions.push(`${writer}@${current.version}`);
        if (meanwhile && decisions.filter((d) => d.startsWith(writer)).length === 1) await meanwhile();
        const set = { n: current.n + 1, writers: [...current.writers, writer], version: current.version + 1 };
        return { where: { _id: 'c' }, set, landed: async () => set.version };
      },
      { what: 'The counter' },
    );
  // a reads version 1; b reads 1 too, c lands 2 under b, b reads 2 and lands 3; then a reads 3 and lands 4.
  const landedAt = await add('a', () => add('b', () => add('c')));
  expect(decisions).toEqual(['a@1', 'b@1', 'c@1', 'b@2', 'a@3']);
  expect(landedAt).toBe(4);
  expect(await read()).toEqual({ _id: 'c', version: 4, n: 3, writers: ['c', 'b', 'a'] });
});

it('gives up after maxAttempts when another write always lands first, undoing each attempt', async () => {
  const { collection, read } = await counter();
  let decided = 0;
  let missed = 0;
  const write = versionedUpdate(
    collection,
    read,
    async (current) => {
      decided++;
      // Another writer lands between this read and this write, every time.
      await collection.updateOne({ _id: 'c' }, { $inc: { version: 1 } });
      return {
        where: { _id: 'c' },
        set: { n: 99, version: current.version + 1 },
        landed: async () => 'landed',
        missed: async () => void missed++,
      };
    },
    { what: 'The counter', maxAttempts: 3 },
  );
  await expect(write).rejects.toThrow(ConcurrentChangeError);
  await expect(write).rejects.toThrow('The counter is being changed by other requests at the same time; try again.');
  expect(decided).toBe(3);
  expect(missed).toBe(3);
  expect((await read())?.n).toBe(0);
});

it('answers without writing when the decision says so, and null for a document that is not there', async () => {
  const { collection, read } = await counter();
  const same = await versionedUpdate(collection, read, async (current) => ({ answer: current.n }), {
    what: 'The counter',
  });
  expect(same).toBe(0);
  expect((await read())?.version).toBe(1);
  const gone = await versionedUpdate(
    collection,
    async () => null,
    async () => ({ answer: 'never' }),
    { what: 'The counter' },
  );
  expect(gone).toBeNull();
});

it('is answered 409 conflict in the endpoint envelope by the error middleware, not 500', async () => {
  const app = new Koa();
  app.use(errorHandler(createLogger('silent'), 'Reviews'));
  app.use(() => {
    throw new ConcurrentChangeError('Review 7 is being changed by other requests at the same time; try again.');
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  try {
    const { port } = server.address() as { port: number };
    const res = await fetch(`http://127.0.0.1:${port}/`);
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({
      error: { code: 'conflict', message: 'Review 7 is being changed by other requests at the same time; try again.' },
    });
  } finally {
    server.close();
  }
});
