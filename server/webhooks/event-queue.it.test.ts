// The event queue (a work queue) on the real database: written with each review write (with the review as written),
// finished after an interrupted write from the unfinished-write markers, and filled once from what an older version
// left.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { MongoClient, type Db } from 'mongodb';
import { ReviewStore } from '../reviews/store.js';
import type { Review } from '../reviews/model.js';
import { migrateWebhookEvents } from '../migrations/webhook-events.js';
import { EventQueue } from './event-queue.js';

let client: MongoClient;
let db: Db;

beforeAll(async () => {
  client = new MongoClient(inject('mongoUri'));
  await client.connect();
  db = client.db(`events_${randomBytes(6).toString('hex')}`);
});
afterAll(async () => {
  await db.dropDatabase().catch(() => undefined);
  await client.close();
});

async function stores(name: string, now = () => new Date()) {
  const scratch = client.db(`${db.databaseName}_${name}`);
  const reviews = new ReviewStore(scratch, now);
  const events = new EventQueue(scratch, now);
  await Promise.all([reviews.ensureIndexes(), events.ensureIndexes()]);
  return { scratch, reviews, events };
}

it('queues each write’s event with the review as that version was written, and forgets it once dispatched', async () => {
  const { reviews, events } = await stores('write');
  reviews.follow(events);
  const review = await reviews.create(3, { name: 'Ann', email: 'ann@example.com', rating: 5, language: 'en' });
  await reviews.update(review.id, { comment: 'Still great' });
  await reviews.update(review.id, { read: true });
  const queued = await events.pending(10);
  expect(queued.map((e) => [e._id, e.topic])).toEqual([
    [`${review.id}:1`, 'reviews.created'],
    [`${review.id}:2`, 'reviews.updated'],
    [`${review.id}:3`, 'reviews.updated'],
  ]);
  expect(queued[0]!.review).toMatchObject({ version: 1, comment: null });
  expect(queued[1]!.review).toMatchObject({ version: 2, comment: 'Still great' });
  // A write that changes nothing public of an unpublished review causes no event.
  const hidden = await reviews.create(3, {
    name: 'Bo',
    email: 'bo@example.com',
    rating: 2,
    language: 'en',
    quarantine: true,
  });
  await reviews.update(hidden.id, { read: true });
  expect((await events.pending(10)).map((e) => e.reviewId)).not.toContain(hidden.id);

  await events.dispatched(queued.map((e) => e._id));
  expect(await events.pending(10)).toEqual([]);
});

it('finishes a write whose event was never queued (a crash in between) from its unfinished-write marker', async () => {
  let clock = new Date('2030-01-01T12:00:00Z');
  const { scratch, reviews, events } = await stores('repair', () => clock);
  // The process "dies" after the review write: its followers never run and the marker stays.
  let crash = true;
  reviews.follow({
    follow: async (before, after) => {
      if (crash) throw new Error('killed');
      await events.follow(before, after);
    },
  });
  await expect(reviews.create(4, { name: 'Cy', email: 'cy@example.com', rating: 4, language: 'en' })).rejects.toThrow(
    'killed',
  );
  crash = false;
  const other = await reviews.create(5, { name: 'Di', email: 'di@example.com', rating: 3, language: 'en' });
  expect((await events.pending(10)).map((e) => e.reviewId)).toEqual([other.id]);
  expect(await scratch.collection('review_writes').countDocuments()).toBe(1);

  // Not yet: a write in progress looks the same for a moment.
  expect(await reviews.finishInterruptedWrites(new Date(clock.getTime() - 60_000))).toBe(0);
  clock = new Date(clock.getTime() + 120_000);
  expect(await reviews.finishInterruptedWrites(new Date(clock.getTime() - 60_000))).toBe(1);
  const queued = await events.pending(10);
  expect(queued.map((e) => [e.shopId, e.topic, e.version])).toEqual([
    [5, 'reviews.created', 1],
    [4, 'reviews.created', 1],
  ]);
  expect(queued[1]!.review).toMatchObject({ name: 'Cy' });
  expect(await scratch.collection('review_writes').countDocuments()).toBe(0);
  // Done: a second run finds nothing.
  expect(await reviews.finishInterruptedWrites(clock)).toBe(0);
});

it('migrates once what an older version left: undispatched events get their review, pendingEvent reviews their event', async () => {
  const { scratch, reviews, events } = await stores('migrate');
  // Written as an older version did: no followers, and `pendingEvent` cleared once the event was recorded.
  const a = await reviews.create(6, { name: 'Ed', email: 'ed@example.com', rating: 5, language: 'en' });
  const b = await reviews.create(6, { name: 'Flo', email: 'flo@example.com', rating: 4, language: 'en' });
  const c = await reviews.create(6, { name: 'Gus', email: 'gus@example.com', rating: 3, language: 'en' });
  const legacy = (r: Review, dispatched: boolean) => ({
    _id: `${r.id}:1`,
    shopId: 6,
    reviewId: r.id,
    version: 1,
    topic: 'reviews.created',
    created: new Date(),
    dispatched,
  });
  await scratch.collection('events').insertMany([legacy(a, false), legacy(b, true)] as never[]);
  await scratch.collection('reviews').updateMany({ id: { $in: [a.id, b.id] } }, { $set: { pendingEvent: null } });
  // c: the older version crashed before recording its event; its pendingEvent is still set.

  // The start-up steps: the old queue moves to the work queue, and the reviews' sweep.
  const migrate = async () =>
    (await migrateWebhookEvents({ db: scratch, reviews, reviewEvents: events })) + (await events.migrate(reviews));
  expect(await migrate()).toBe(2);
  const queued = await events.pending(10);
  expect(queued.map((e) => e._id).sort()).toEqual([`${a.id}:1`, `${c.id}:1`].sort());
  expect(queued.find((e) => e.reviewId === a.id)!.review).toMatchObject({ name: 'Ed' });
  expect(await scratch.collection('events').countDocuments({ dispatched: { $exists: true } })).toBe(0);
  expect(await scratch.collection('events').countDocuments({})).toBe(0);

  // Once: a later start queues nothing again, even for events dispatched since.
  await events.dispatched(queued.map((e) => e._id));
  expect(await migrate()).toBe(0);
  expect(await events.pending(10)).toEqual([]);
});

it('gives each queued event to one of two full runs taking at once, and back to the queue when a run lets go', async () => {
  const { reviews, events } = await stores('split');
  reviews.follow(events);
  for (let i = 0; i < 6; i++)
    await reviews.create(8, { name: `R${i}`, email: `r${i}@example.com`, rating: 4, language: 'en' });
  const [a, b] = await Promise.all([events.take('run-a', 4), events.take('run-b', 4)]);
  const ids = [...a!, ...b!].map((e) => e._id);
  expect(ids).toHaveLength(6);
  expect(new Set(ids).size).toBe(6);
  // Run a dispatched its events; run b failed and let go: its events are taken again, by whichever run comes next.
  await events.dispatched(
    a!.map((e) => e._id),
    'run-a',
  );
  await events.release('run-b');
  expect((await events.take('run-c', 10)).map((e) => e._id).sort()).toEqual(b!.map((e) => e._id).sort());
});
