// Rendered widget pages, per shop and parameter set. Bounded in entries and bytes (least recently used go
// first), so arbitrary `css` values cannot grow it without limit. A shop's pages are dropped at once when its
// reviews change in this process; changes made by other processes show after `freshMs`: an older page is still
// served while its successor renders, so no visitor waits for a render of a page that is in the cache.
import { BoundedCache } from '../cache.js';
import type { PreparedPage } from './http.js';

interface PageCacheLimits {
  /** How long a page is served without re-rendering it (the cache TTL of the other read caches). */
  freshMs: number;
  maxEntries: number;
  maxBytes: number;
}

interface Entry {
  page: PreparedPage;
  rendered: number;
}

/** A stale page is still served (while a fresh one renders) for this many times freshMs, at least a minute. */
const STALE_FACTOR = 12;

export class WidgetPageCache {
  private readonly pages: BoundedCache<Entry>;
  private readonly generations = new Map<number, number>();
  private readonly rendering = new Map<string, Promise<PreparedPage>>();

  constructor(
    private readonly limits: PageCacheLimits,
    private readonly now: () => number = Date.now,
  ) {
    const keepMs = limits.freshMs > 0 ? Math.max(limits.freshMs * STALE_FACTOR, 60_000) : 0;
    this.pages = new BoundedCache({ ttlMs: keepMs, maxEntries: limits.maxEntries, maxBytes: limits.maxBytes }, now);
  }

  invalidate(shopId: number): void {
    this.generations.set(shopId, (this.generations.get(shopId) ?? 0) + 1);
    this.pages.deletePrefix(`${shopId}:`);
  }

  /** The cached page for the key, or the one `render` makes (one render at a time per key). */
  async get(shopId: number, key: string, render: () => Promise<PreparedPage>): Promise<PreparedPage> {
    const fullKey = `${shopId}:${key}`;
    const cached = this.pages.get(fullKey);
    if (cached) {
      if (this.now() - cached.rendered > this.limits.freshMs)
        this.renderOnce(shopId, fullKey, render).catch(() => undefined);
      return cached.page;
    }
    return this.renderOnce(shopId, fullKey, render);
  }

  private renderOnce(shopId: number, fullKey: string, render: () => Promise<PreparedPage>): Promise<PreparedPage> {
    const running = this.rendering.get(fullKey);
    if (running) return running;
    const generation = this.generations.get(shopId) ?? 0;
    const rendered = this.now();
    const promise = render()
      .then((page) => {
        // A page rendered while the shop's reviews changed may be stale: serve it to its caller, do not keep it.
        if ((this.generations.get(shopId) ?? 0) === generation) {
          this.pages.set(fullKey, { page, rendered }, page.bytes + fullKey.length * 2);
        }
        return page;
      })
      .finally(() => this.rendering.delete(fullKey));
    this.rendering.set(fullKey, promise);
    return promise;
  }

  get size(): number {
    return this.pages.size;
  }

  get totalBytes(): number {
    return this.pages.totalBytes;
  }
}
