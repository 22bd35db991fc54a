import { randomBytes } from 'node:crypto';
import { expect, it } from 'vitest';
import { WorkQueue } from './work-queue.js';
import { scratchDatabase } from '../../test/scratch-db.js';

const { db } = await scratchDatabase('work_queue');

let clock = new Date('2026-01-01T00:00:00Z');
const now = () => clock;
const later = (ms: number) => (clock = new Date(clock.getTime() + ms));
const LEASE = 60_000;

const fresh = async (): Promise<WorkQueue<{ to: string }>> => {
  const queue = new WorkQueue<{ to: string }>(db, `work_${randomBytes(4).toString('hex')}`, now);
  await queue.ensureIndexes();
  return queue;
};

it('queues an item once under its key, and gives it out only once due', async () => {
  const queue = await fresh();
  expect(await queue.enqueue('a', { to: 'first' }, new Date(clock.getTime() + 1000))).toBe(true);
  expect(await queue.enqueue('a', { to: 'second' })).toBe(false);
  expect(await queue.size()).toBe(1);
  expect(await queue.take('w', 10, LEASE)).toEqual([]);
  later(1000);
  const taken = await queue.take('w', 10, LEASE);
  expect(taken.map((i) => [i._id, i.payload.to, i.attempts])).toEqual([['a', 'first', 0]]);
  await queue.finish('w', 'a');
  expect(await queue.take('w', 10, LEASE)).toEqual([]);
  expect(await queue.size()).toBe(0);
  // Finished, the key may be queued again (a new message with the same purpose is the caller's to key apart).
  expect(await queue.enqueue('a', { to: 'again' })).toBe(true);
});

it('gives each item to exactly one of several workers taking at once', async () => {
  const queue = await fresh();
  const keys = Array.from({ length: 40 }, (_, i) => `item-${String(i).padStart(2, '0')}`);
  for (const key of keys) await queue.enqueue(key, { to: key });
  const workers = ['a', 'b', 'c', 'd'];
  const got = await Promise.all(workers.map((w) => queue.take(w, 100, LEASE)));
  expect(
    got
      .flat()
      .map((i) => i._id)
      .sort(),
  ).toEqual(keys);
  // Held: nobody else gets them, even with the leases running.
  later(LEASE / 2);
  expect(await queue.take('e', 100, LEASE)).toEqual([]);
});

it('gives the items of a worker that died to another once its lease ran out, and only then', async () => {
  const queue = await fresh();
  await queue.enqueue('x', { to: 'x' });
  await queue.enqueue('y', { to: 'y' });
  expect(await queue.take('dead', 10, LEASE)).toHaveLength(2);
  // The worker dies here: no finish, no release.
  later(LEASE - 1);
  expect(await queue.take('alive', 10, LEASE)).toEqual([]);
  later(2);
  const [first, second] = await Promise.all([queue.take('alive', 10, LEASE), queue.take('other', 10, LEASE)]);
  expect([...first!, ...second!].map((i) => i._id).sort()).toEqual(['x', 'y']);
});

it('retries an item later with its attempt counted, and gives it up for good', async () => {
  const queue = await fresh();
  await queue.enqueue('m', { to: 'm' });
  await queue.take('w', 10, LEASE);
  await queue.retryLater('w', 'm', new Date(clock.getTime() + 5000), '421 try later');
  expect(await queue.take('w', 10, LEASE)).toEqual([]);
  later(5000);
  const [again] = await queue.take('w2', 10, LEASE);
  expect([again!.attempts, again!.lastError]).toEqual([1, '421 try later']);
  await queue.giveUp('w2', 'm');
  later(LEASE * 10);
  expect(await queue.take('w', 10, LEASE)).toEqual([]);
  expect(await queue.get('m')).toBeUndefined();
});

it('lets a run release what it did not get to, and forgets items by payload for an erasure', async () => {
  const queue = await fresh();
  await queue.enqueue('p', { to: 'erase@example.com' });
  await queue.enqueue('q', { to: 'keep@example.com' });
  expect(await queue.take('w', 10, LEASE)).toHaveLength(2);
  await queue.release('w');
  expect(await queue.take('w2', 10, LEASE)).toHaveLength(2);
  expect(await queue.forget({ to: 'erase@example.com' })).toBe(1);
  expect((await queue.get('q'))?.payload.to).toBe('keep@example.com');
  expect(await queue.get('p')).toBeUndefined();
});

it('reads past what is held (a batch still in progress, or keys to skip) to the next due items', async () => {
  const queue = await fresh();
  for (const key of ['a', 'b', 'c', 'd', 'e']) await queue.enqueue(key, { to: key });
  // The same holder takes its next batch while the first is in progress (the invitation drain does).
  expect((await queue.take('w', 2, LEASE)).map((i) => i._id)).toEqual(['a', 'b']);
  expect((await queue.take('w', 2, LEASE, new Set(['c']))).map((i) => i._id)).toEqual(['d', 'e']);
  expect((await queue.take('v', 2, LEASE)).map((i) => i._id)).toEqual(['c']);
});

it('marks the items it took over from a holder whose lease ran out, and only those', async () => {
  const queue = await fresh();
  await queue.enqueue('old', { to: 'old' });
  await queue.take('dead', 10, LEASE);
  later(1);
  await queue.enqueue('new', { to: 'new' });
  later(LEASE);
  const taken = await queue.take('alive', 10, LEASE);
  expect(taken.map((i) => [i._id, i.takenOver ?? false])).toEqual([
    ['old', true],
    ['new', false],
  ]);
});

it('finishes a batch at once, postpones without counting a failure, cancels, and forgets by key or quoted address', async () => {
  const queue = await fresh();
  for (const key of ['f', 'g', 'h', 'i', 'j']) await queue.enqueue(key, { to: key });
  await queue.take('w', 10, LEASE);
  await queue.finishAll('w', ['f', 'g']);
  await queue.postpone('h', new Date(clock.getTime() + 1000));
  await queue.postpone('i', new Date(clock.getTime() + 1000), { attempts: 3, lastError: '550 <Who@Example.com>' });
  await queue.release('w');
  expect((await queue.take('w', 10, LEASE)).map((i) => i._id)).toEqual(['j']);
  await queue.cancel(['j']);
  later(1000);
  const again = await queue.take('w', 10, LEASE);
  expect(again.map((i) => [i._id, i.attempts, i.lastError])).toEqual([
    ['h', 0, null],
    ['i', 3, '550 <Who@Example.com>'],
  ]);
  expect(await queue.forgetKeys(['h'], { $regex: 'who@example\\.com', $options: 'i' })).toBe(2);
  expect(await queue.size()).toBe(0);
});

it('reads on past items it saw free but whose holder renewed them meanwhile (a batch claimed ahead, sent late)', async () => {
  const queue = await fresh();
  for (const key of ['a-slow-1', 'a-slow-2', 'b-next-1', 'b-next-2']) await queue.enqueue(key, { to: key });
  expect((await queue.take('slow', 2, LEASE)).map((i) => i._id)).toEqual(['a-slow-1', 'a-slow-2']);
  later(LEASE + 1);
  // The taker reads the claims while they have run out; the slow holder renews them right after that read.
  const claims = (queue as unknown as { claims: { all: () => Promise<unknown>; renew: typeof queue.renew } }).claims;
  const all = claims.all.bind(claims);
  claims.all = async () => {
    const stale = await all();
    claims.all = all;
    await queue.renew('slow', LEASE);
    return stale;
  };
  expect((await queue.take('next', 2, LEASE)).map((i) => i._id)).toEqual(['b-next-1', 'b-next-2']);
});

it('reads items by key (few one by one, many at once), looks at the queue without taking, and rewrites payloads', async () => {
  const queue = await fresh();
  const keys = Array.from({ length: 30 }, (_, i) => `k-${String(i).padStart(2, '0')}`);
  for (const [i, key] of keys.entries()) await queue.enqueue(key, { to: key }, new Date(clock.getTime() - 1000 * i));
  expect((await queue.getMany(['k-03', 'gone', 'k-01'])).map((i) => i._id).sort()).toEqual(['k-01', 'k-03']);
  expect((await queue.getMany([...keys, 'gone'])).map((i) => i._id).sort()).toEqual(keys);
  // Earliest due first, held ones too, none taken.
  await queue.take('w', 5, LEASE);
  expect((await queue.peek(3)).map((i) => i._id)).toEqual(['k-29', 'k-28', 'k-27']);
  expect(await queue.take('v', 3, LEASE)).toHaveLength(3);
  // An erasure's rewrite keeps the key, due time and attempts.
  await queue.retryLater('w', 'k-29', clock, 'busy');
  expect(await queue.rewrite({ to: { $in: ['k-29', 'k-00'] } }, (p) => ({ to: `${p.to}!` }))).toBe(2);
  expect(await queue.get('k-29')).toMatchObject({ payload: { to: 'k-29!' }, attempts: 1, lastError: 'busy' });
  expect(await queue.get('k-00')).toMatchObject({ payload: { to: 'k-00!' }, attempts: 0 });
});

/**
 * A queue on the real database whose collections can be made to fail their next call of one method, as FerretDB does
 * under load (SQLITE_BUSY) or when the connection drops.
 */
const flaky = async () => {
  const collections = new Map<string, ReturnType<typeof db.collection>>();
  const recording = {
    collection: (name: string) => {
      const collection = db.collection(name);
      collections.set(name, collection);
      return collection;
    },
  } as unknown as typeof db;
  const name = `work_${randomBytes(4).toString('hex')}`;
  const queue = new WorkQueue<{ to: string }>(recording, name, now);
  await queue.ensureIndexes();
  /** The next call of `method` on the items (or, with `claims`, on the claims) that `when` picks fails. */
  const failNext = (method: 'find' | 'deleteMany', when: (filter: object) => boolean, claims = false) => {
    const collection = collections.get(claims ? `${name}_claims` : name)! as unknown as Record<string, unknown>;
    const original = collection[method] as (filter: object, ...rest: unknown[]) => unknown;
    collection[method] = (filter: object, ...rest: unknown[]) => {
      if (!when(filter)) return original.call(collection, filter, ...rest);
      collection[method] = original;
      throw new Error('database is locked (5) (SQLITE_BUSY)');
    };
  };
  return { queue, failNext };
};

it('lets go of what a take claimed when the take fails after its claim, so the next take gets it', async () => {
  const { queue, failNext } = await flaky();
  await queue.enqueue('p', { to: 'photo' });
  // The read under the claim (by `_id`) fails: the worker's run ends with the error and is tried again.
  failNext('find', (filter) => '_id' in filter);
  await expect(queue.take('first run', 1, LEASE)).rejects.toThrow('SQLITE_BUSY');
  // The retry, with the lease far from over.
  expect((await queue.take('retry', 1, LEASE)).map((i) => i._id)).toEqual(['p']);
});

it('lets go at the next take of what a failed release kept, instead of when the lease runs out', async () => {
  const { queue, failNext } = await flaky();
  await queue.enqueue('p', { to: 'photo' });
  await queue.enqueue('q', { to: 'other' });
  expect((await queue.take('first run', 2, LEASE)).map((i) => i._id)).toEqual(['p', 'q']);
  await queue.finish('first run', 'q');
  // The run ends (say, the item was not ready) and its release fails.
  failNext('deleteMany', () => true, true);
  await expect(queue.release('first run')).rejects.toThrow('SQLITE_BUSY');
  expect((await queue.take('retry', 1, LEASE)).map((i) => i._id)).toEqual(['p']);
  // Once only: the retry's own claim stays.
  expect(await queue.take('third', 1, LEASE)).toEqual([]);
});
