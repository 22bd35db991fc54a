// Rendered widget pages, per shop and parameter set, in the process's cache budget (server/cache.ts) with a share of
// their own, so arbitrary `css` values can neither grow it without limit nor push the other caches out. A shop's
// pages are dropped at once when its public reviews change in this process (app.ts); changes made by other processes
// show after the cache TTL: an older page is still served while its successor renders, so no visitor waits for a
// render of a page that is in the cache.
import type { CacheOptions, Cache } from '../cache.js';
import type { PreparedPage } from './http.js';
import type { WidgetOptions } from '../../widget/page.js';

/** A stale page is still served (while a fresh one renders) for this many times the TTL, at least a minute. */
const STALE_FACTOR = 12;
/** The share of the cache budget widget pages may fill. */
const PAGES_SHARE = 1 / 8;

/** The page cache's options for a cache TTL of `freshMs`. */
export function widgetPageCacheOptions(freshMs: number): CacheOptions {
  const keepMs = freshMs > 0 ? Math.max(freshMs * STALE_FACTOR, 60_000) : 0;
  return { ttlMs: freshMs, staleWhileRevalidateMs: keepMs - freshMs, maxShare: PAGES_SHARE };
}

export class WidgetPageCache {
  constructor(private readonly pages: Cache<PreparedPage>) {}

  invalidate(shopId: number): void {
    this.pages.deleteGroup(shopId);
  }

  /** The cached page for the key, or the one `render` makes (one render at a time per key). */
  async get(shopId: number, key: string, render: () => Promise<PreparedPage>): Promise<PreparedPage> {
    // A page rendered while the shop's reviews changed may be stale: served to its caller, not kept (the cache's).
    return this.pages.fetch(`${shopId}:${key}`, render, { bytes: (p) => p.bytes, group: shopId });
  }
}

/** A widget query string already validated: its options and page key, while the shop's `updated` is unchanged. */
export interface KnownQuery {
  shopId: number;
  updated: number;
  options: WidgetOptions;
  key: string;
}

/** The validated-query memo's options: kept until evicted (it is checked against the shop), in a small share. */
export const KNOWN_QUERY_CACHE: CacheOptions = { ttlMs: Infinity, maxShare: 1 / 64 };
