import { describe, expect, it } from 'vitest';
import { WidgetPageCache } from './cache.js';
import { preparePage } from './http.js';

describe('WidgetPageCache', () => {
  it('stays within its entry and byte bounds whatever the keys (e.g. arbitrary css values)', async () => {
    const cache = new WidgetPageCache({ freshMs: 60_000, maxEntries: 50, maxBytes: 200_000 });
    for (let i = 0; i < 500; i++) {
      await cache.get(1, `css-${i}-${'x'.repeat(i * 10)}`, async () =>
        preparePage(`<p>${i}</p>`.repeat(50), "default-src 'none'"),
      );
      expect(cache.size).toBeLessThanOrEqual(50);
      expect(cache.totalBytes).toBeLessThanOrEqual(200_000);
    }
  });

  it('renders once per key while a render is running, and drops a shop’s pages on invalidate', async () => {
    const cache = new WidgetPageCache({ freshMs: 60_000, maxEntries: 50, maxBytes: 1_000_000 });
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
    const cache = new WidgetPageCache({ freshMs: 60_000, maxEntries: 50, maxBytes: 1_000_000 });
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
    let now = 0;
    const cache = new WidgetPageCache({ freshMs: 5000, maxEntries: 10, maxBytes: 1_000_000 }, () => now);
    let version = 0;
    const render = async () => preparePage(`<p>v${++version}</p>`, '');
    expect((await cache.get(1, 'k', render)).identity.toString()).toBe('<p>v1</p>');
    now = 4000;
    expect((await cache.get(1, 'k', render)).identity.toString()).toBe('<p>v1</p>');
    expect(version).toBe(1);
    now = 6000;
    expect((await cache.get(1, 'k', render)).identity.toString()).toBe('<p>v1</p>');
    await new Promise((r) => setTimeout(r, 20));
    expect((await cache.get(1, 'k', render)).identity.toString()).toBe('<p>v2</p>');
  });
});
