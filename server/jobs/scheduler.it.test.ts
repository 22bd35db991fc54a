import { afterAll, beforeAll, expect, it } from 'vitest';
import { inject } from 'vitest';
import { MongoClient, type Db } from 'mongodb';
import { createLogger } from '../log.js';
import { Scheduler } from './scheduler.js';

let client: MongoClient;
let db: Db;
beforeAll(async () => {
  client = new MongoClient(inject('mongoUri'));
  await client.connect();
  db = client.db(`sched_${Date.now()}`);
});
afterAll(async () => {
  await db.dropDatabase();
  await client.close();
});

const waitFor = async (check: () => boolean, ms = 10_000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
};

it('runs a drain on its period and at once when triggered, coalescing triggers during a run', async () => {
  const scheduler = new Scheduler(db, createLogger('silent'), { pollMs: 200, lockLifetimeMs: 30_000, worker: true });
  let runs = 0;
  scheduler.define(
    'test.drain',
    async () => {
      runs++;
      await new Promise((r) => setTimeout(r, 50));
    },
    60_000,
  );
  await scheduler.start();
  await waitFor(() => runs >= 1); // the periodic job's first run
  const before = runs;
  for (let i = 0; i < 5; i++) scheduler.trigger('test.drain');
  await waitFor(() => runs >= before + 2);
  await new Promise((r) => setTimeout(r, 200));
  expect(runs - before).toBeLessThanOrEqual(2);
  await scheduler.stop();
});

it('queues a job for the workers when triggered in an API-only process', async () => {
  const api = new Scheduler(db, createLogger('silent'), { pollMs: 200, lockLifetimeMs: 30_000, worker: false });
  api.define('test.queued', async () => undefined);
  api.trigger('test.queued');
  await waitFor(() => false, 300).catch(() => undefined);
  expect(await db.collection('jobs').countDocuments({ name: 'test.queued' })).toBe(1);

  const worker = new Scheduler(db, createLogger('silent'), { pollMs: 200, lockLifetimeMs: 30_000, worker: true });
  let ran = false;
  worker.define('test.queued', async () => {
    ran = true;
  });
  await worker.start();
  await waitFor(() => ran);
  await worker.stop();
});
