// A check that was in flight while its token was revoked must not put the token back in the cache: it would then
// keep working in this process for up to the cache TTL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness.js';
import type { Collection, Db } from '../db/index.js';
import { DomainTokenStore, type DomainToken } from './token-store.js';
import { Caches } from '../cache.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

/** A store whose next findOne (the real query runs) answers only once release() is called. */
function storeWithHeldRead(): { store: DomainTokenStore; read: Promise<void>; release: () => void } {
  const collection: Collection<DomainToken> = t.db.collection<DomainToken>('domain_tokens');
  const db = new Proxy(t.db, {
    get: (target, key) => (key === 'collection' ? () => collection : Reflect.get(target, key)),
  }) as Db;
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
  return {
    store: new DomainTokenStore(db, new Caches({ ttlMs: 60_000, maxBytes: 1 << 20 }).cache('domain-tokens')),
    read,
    release,
  };
}

describe('DomainTokenStore: revocation during a check', () => {
  it('does not cache a token as valid from a check that finished after its revocation', async () => {
    const { store, read, release } = storeWithHeldRead();
    const token = await store.issue('Race');
    const inFlight = store.isValid(token);
    await read; // the token's record has been found
    expect(await store.revoke(token)).toBe(true);
    release();
    expect(await inFlight).toBe(true); // asked before the revocation
    expect(await store.isValid(token)).toBe(false);
  });
});
