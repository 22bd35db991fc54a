import { describe, expect, it } from 'vitest';
import { Caches } from './cache.js';

/** A clock the test moves (far from 0: lru-cache takes a start of 0 for "no TTL"). */
function manualClock() {
  let now = 1_000_000;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe('Caches', () => {
  it('serves an entry for the TTL, then never a stale one unless the cache says so', async () => {
    const clock = manualClock();
    const caches = new Caches({ ttlMs: 100, maxBytes: 100_000 }, clock.now);
    const codes = caches.cache<string>('codes');
    codes.set('a', 'x', 1);
    clock.advance(99);
    expect(codes.get('a')).toBe('x');
    clock.advance(2);
    expect(codes.get('a')).toBeUndefined();

    let loads = 0;
    const load = async () => `v${++loads}`;
    expect(await codes.fetch('b', load, { bytes: () => 1 })).toBe('v1');
    clock.advance(101);
    // Past its TTL the caller waits for the new load: no stale answer for a cache without staleWhileRevalidateMs.
    expect(await codes.fetch('b', load, { bytes: () => 1 })).toBe('v2');
  });

  it('hands the entry past its TTL to the load, which may keep it', async () => {
    const clock = manualClock();
    const caches = new Caches({ ttlMs: 100, maxBytes: 100_000 }, clock.now);
    const lists = caches.cache<{ version: number }>('lists');
    const first = await lists.fetch('s', async () => ({ version: 1 }), { bytes: () => 10 });
    clock.advance(200);
    const seen: unknown[] = [];
    const again = await lists.fetch(
      's',
      async (stale) => {
        seen.push(stale);
        return stale ?? { version: 2 };
      },
      { bytes: () => 10 },
    );
    expect(seen).toEqual([first]);
    expect(again).toBe(first);
    // Kept for another TTL.
    expect(lists.get('s')).toBe(first);
  });

  it('shares one load between callers, and does not keep a load its key was deleted during', async () => {
    const caches = new Caches({ ttlMs: 60_000, maxBytes: 100_000 });
    const shops = caches.cache<string>('shops');
    let loads = 0;
    let release!: () => void;
    const gate = new Promise<void>((ok) => (release = ok));
    const load = async () => {
      loads++;
      await gate;
      return 'old';
    };
    const a = shops.fetch(1, load, { bytes: () => 1 });
    const b = shops.fetch(1, load, { bytes: () => 1 });
    shops.delete(1); // a write of this process ended meanwhile
    const c = shops.fetch(1, async () => 'new', { bytes: () => 1 });
    release();
    expect([await a, await b, await c]).toEqual(['old', 'old', 'new']);
    expect(loads).toBe(1);
    expect(shops.get(1)).toBe('new');
  });

  it('does not keep what a load answers with undefined, and keeps nothing with a TTL of 0', async () => {
    const caches = new Caches({ ttlMs: 0, maxBytes: 100_000 });
    const none = caches.cache<string>('none');
    let loads = 0;
    await none.fetch('k', async () => `v${++loads}`, { bytes: () => 1 });
    await none.fetch('k', async () => `v${++loads}`, { bytes: () => 1 });
    expect(loads).toBe(2);
    const tokens = new Caches({ ttlMs: 60_000, maxBytes: 100_000 }).cache<true>('tokens');
    expect(await tokens.fetch('guess', async () => undefined, { bytes: () => 1 })).toBeUndefined();
    expect(tokens.has('guess')).toBe(false);
  });

  it('keeps all caches together within one byte budget, least recently used first, and refuses entries over the largest', () => {
    const caches = new Caches({ ttlMs: 60_000, maxBytes: 10_000 });
    const a = caches.cache<string>('a');
    const b = caches.cache<string>('b');
    for (let i = 0; i < 50; i++) {
      a.set(i, 'v', 200);
      b.set(i, 'v', 200);
      expect(caches.totalBytes).toBeLessThanOrEqual(10_000);
    }
    expect(a.get(0)).toBeUndefined();
    expect(b.get(49)).toBe('v');
    b.set('huge', 'v', caches.maxEntryBytes + 1);
    expect(b.get('huge')).toBeUndefined();
    expect(caches.maxEntryBytes).toBe(2_500);
  });

  it('drops a group at once, a load under way included', async () => {
    const caches = new Caches({ ttlMs: 60_000, maxBytes: 100_000 });
    const pages = caches.cache<string>('pages');
    await pages.fetch('1:a', async () => 'a', { bytes: () => 1, group: 1 });
    await pages.fetch('2:a', async () => 'a', { bytes: () => 1, group: 2 });
    const during = await pages.fetch(
      '1:b',
      async () => {
        pages.deleteGroup(1);
        return 'b';
      },
      { bytes: () => 1, group: 1 },
    );
    expect(during).toBe('b');
    expect([pages.has('1:a'), pages.has('1:b'), pages.has('2:a')]).toEqual([false, false, true]);
  });

  it('keeps a cache with a share within it, without pushing the others out', () => {
    const caches = new Caches({ ttlMs: 60_000, maxBytes: 100_000 });
    const shops = caches.cache<string>('shops');
    const anyone = caches.cache<string>('anyone', { maxShare: 0.1 });
    for (let i = 0; i < 20; i++) shops.set(i, 'shop', 1000);
    for (let i = 0; i < 1000; i++) anyone.set(`css-${i}`, 'page', 1000);
    expect([...Array(20).keys()].every((i) => shops.get(i) === 'shop')).toBe(true);
    const kept = [...Array(1000).keys()].filter((i) => anyone.has(`css-${i}`)).length;
    expect(kept).toBeGreaterThan(0);
    expect(kept * 1000).toBeLessThanOrEqual(10_000);
  });

  it('serves a stale entry of a stale-while-revalidate cache while one reload runs, and only for so long', async () => {
    const clock = manualClock();
    const caches = new Caches({ ttlMs: 1000, maxBytes: 100_000 }, clock.now);
    const pages = caches.cache<string>('pages', { staleWhileRevalidateMs: 5000 });
    let version = 0;
    const render = async () => `v${++version}`;
    expect(await pages.fetch('k', render, { bytes: () => 1 })).toBe('v1');
    clock.advance(2000);
    expect(await pages.fetch('k', render, { bytes: () => 1 })).toBe('v1');
    await new Promise((r) => setTimeout(r, 10));
    expect(await pages.fetch('k', render, { bytes: () => 1 })).toBe('v2');
    clock.advance(7000);
    // Older than TTL + staleWhileRevalidateMs: the caller waits for the new one.
    expect(await pages.fetch('k', render, { bytes: () => 1 })).toBe('v3');
  });
});
