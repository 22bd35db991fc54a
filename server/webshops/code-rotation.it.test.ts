// A read that was in flight while the code rotated must not put the old code back in the cache: the old code would
// then keep working in this process for up to CACHE_TTL_MS.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness.js';
import type { Collection, Db } from '../db/index.js';
import { WebshopStore, type Webshop } from './store.js';
import { Caches } from '../cache.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

/** A store over the test database whose `webshops` collection object the test holds, to delay its queries. */
function storeWithHeldCollection(): { store: WebshopStore; collection: Collection<Webshop> } {
  const collection = t.db.collection<Webshop>('webshops');
  const db = new Proxy(t.db, {
    get: (target, key) =>
      key === 'collection'
        ? (name: string) => (name === 'webshops' ? collection : target.collection(name))
        : Reflect.get(target, key),
  }) as Db;
  return {
    store: new WebshopStore(db, new Caches({ ttlMs: 60_000, maxBytes: 1 << 20 }).cache('webshops')),
    collection,
  };
}

/** Holds back the answer of the collection's next findOne (the real query runs) until release() is called. */
function holdNextRead(collection: Collection<Webshop>): { read: Promise<void>; release: () => void } {
  const real = collection.findOne.bind(collection) as (...args: unknown[]) => Promise<unknown>;
  let release!: () => void;
  const gate = new Promise<void>((ok) => (release = ok));
  let markRead!: () => void;
  const read = new Promise<void>((ok) => (markRead = ok));
  (collection as unknown as { findOne: unknown }).findOne = async (...args: unknown[]) => {
    (collection as unknown as { findOne: unknown }).findOne = real;
    const result = await real(...args);
    markRead();
    await gate;
    return result;
  };
  return { read, release };
}

describe('WebshopStore: code rotation during a read', () => {
  it('does not cache the old code from a read that finished after the rotation', async () => {
    const { store, collection } = storeWithHeldCollection();
    const shop = await store.create({ name: 'Race BV', url: 'https://race.example/' });
    const held = holdNextRead(collection);
    const inFlight = store.get(shop.id);
    await held.read; // the old document has been read
    const rotated = await store.rotateCode(shop.id);
    expect(rotated?.code).not.toBe(shop.code);
    held.release();
    expect((await inFlight)?.code).toBe(shop.code); // the caller that asked before the rotation may see the old one
    expect((await store.get(shop.id))?.code).toBe(rotated?.code);
  });

  it('does not cache the old code from a read that started while the rotation was being written', async () => {
    const { store, collection } = storeWithHeldCollection();
    const shop = await store.create({ name: 'Race 2 BV', url: 'https://race2.example/' });
    // The rotation has begun but its write waits until a read has fetched the old document; that read's answer is
    // held back until the rotation has finished.
    const realUpdate = collection.findOneAndUpdate.bind(collection) as (...args: unknown[]) => Promise<unknown>;
    const held = holdNextRead(collection);
    (collection as unknown as { findOneAndUpdate: unknown }).findOneAndUpdate = async (...args: unknown[]) => {
      await held.read;
      return realUpdate(...args);
    };
    const rotating = store.rotateCode(shop.id);
    const inFlight = store.get(shop.id);
    const rotated = await rotating;
    held.release();
    expect((await inFlight)?.code).toBe(shop.code);
    expect((await store.get(shop.id))?.code).toBe(rotated?.code);
  });

  it('a read that starts after the rotation is not answered by one that started before it', async () => {
    const { store, collection } = storeWithHeldCollection();
    const shop = await store.create({ name: 'Race 3 BV', url: 'https://race3.example/' });
    const held = holdNextRead(collection);
    const before = store.get(shop.id);
    await held.read;
    const rotated = await store.rotateCode(shop.id);
    const after = store.get(shop.id);
    held.release();
    expect((await before)?.code).toBe(shop.code);
    expect((await after)?.code).toBe(rotated?.code);
    expect((await store.get(shop.id))?.code).toBe(rotated?.code);
  });
});
