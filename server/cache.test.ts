import { describe, expect, it } from 'vitest';
import { BoundedCache } from './cache.js';

describe('BoundedCache', () => {
  it('expires entries after the TTL', () => {
    let now = 0;
    const cache = new BoundedCache<string>({ ttlMs: 100, maxEntries: 10, maxBytes: 1000 }, () => now);
    cache.set('a', 'x', 1);
    now = 99;
    expect(cache.get('a')).toBe('x');
    now = 100;
    expect(cache.get('a')).toBeUndefined();
  });

  it('evicts the least recently used entry past the entry bound', () => {
    const cache = new BoundedCache<number>({ ttlMs: 1000, maxEntries: 2, maxBytes: 1000 });
    cache.set('a', 1, 1);
    cache.set('b', 2, 1);
    cache.get('a');
    cache.set('c', 3, 1);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe(1);
    expect(cache.size).toBe(2);
  });

  it('stays under the byte bound and refuses single entries larger than it', () => {
    const cache = new BoundedCache<string>({ ttlMs: 1000, maxEntries: 100, maxBytes: 100 });
    for (let i = 0; i < 10; i++) cache.set(`k${i}`, 'v', 30);
    expect(cache.totalBytes).toBeLessThanOrEqual(100);
    cache.set('huge', 'v', 101);
    expect(cache.get('huge')).toBeUndefined();
  });
});
