import { describe, expect, it } from 'vitest';
import { Caches } from '../cache.js';
import { WidgetPageCache, widgetPageCacheOptions } from './cache.js';
import { preparePage } from './http.js';

/** A page cache as app.ts builds it, alone in a budget of `maxBytes`; `freshMs` is the cache TTL. */
function pageCache(freshMs: number, maxBytes: number, now?: () => number) {
  const caches = new Caches({ ttlMs: freshMs, maxBytes }, now);
  return { caches, cache: new WidgetPageCache(caches.cache('widget-pages', widgetPageCacheOptions(freshMs))) };
}

describe('WidgetPageCache', () => {
  it('stays within its share of the byte budget whatever the keys (e.g. arbitrary css values)', async () => {
    const { caches, cache } = pageCache(60_000, 1_600_000);
    for (let i = 0; i < 500; i++) {
      await cache.get(1, `css-${i}-${'x'.repeat(i * 10)}`, async () =>
        preparePage(`<p>${i}</p>`.repeat(50), "default-src 'none'"),
      );
      // The pages' share: an eighth of the budget.
      expect(caches.totalBytes).toBeLessThanOrEqual(200_000);
    }
  });

  it('renders once per key while a render is running, and drops a shop’s pages on invalidate', async () => {
    const { cache } = pageCache(60_000, 1_000_000);
    let renders = 0;
    const render = async () => {
      renders++;
      await new Promise((r) => setTimeout(r, 10));
      return preparePage('<p>x</p>', '');
    };
    await Promise.all([cache.get(1, 'k', render), cache.get(1, 'k', render), cache.get(1, 'k', render)]);
    expect(renders).toBe(1);
    await cache.get(2, 'k', render);
    cache.invalidate(1);
    await cache.get(1, 'k', render);
    await cache.get(2, 'k', render);
    expect(renders).toBe(3);
  });

  it('does not keep a page rendered while the shop’s reviews changed', async () => {
    const { cache } = pageCache(60_000, 1_000_000);
    let renders = 0;
    await cache.get(1, 'k', async () => {
      renders++;
      cache.invalidate(1);
      return preparePage('<p>stale</p>', '');
    });
    await cache.get(1, 'k', async () => {
      renders++;
      return preparePage('<p>fresh</p>', '');
    });
    expect(renders).toBe(2);
  });

  it('serves a page past freshMs while its successor renders in the background', async () => {
    // lru-cache takes a start time of 0 for "no TTL": the clock starts elsewhere.
    const start = 1_000_000;
    let now = start;
    const { cache } = pageCache(5000, 1_000_000, () => now);
    let version = 0;
    const render = async () => preparePage(`<p>v${++version}</p>`, '');
    expect((await cache.get(1, 'k', render)).identity.toString()).toBe('<p>v1</p>');
    now = start + 4000;
    expect((await cache.get(1, 'k', render)).identity.toString()).toBe('<p>v1</p>');
    expect(version).toBe(1);
    now = start + 6000;
    expect((await cache.get(1, 'k', render)).identity.toString()).toBe('<p>v1</p>');
    await new Promise((r) => setTimeout(r, 20));
    expect((await cache.get(1, 'k', render)).identity.toString()).toBe('<p>v2</p>');
  });
});
