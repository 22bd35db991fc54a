// A small bounded cache (entries and approximate bytes) with a time-to-live. The TTL is the documented bound on
// staleness across processes: a process that did not make a change sees it at the latest after ttlMs.
// Within one process, writers invalidate the keys they affect at once.
// Recency and the two bounds are lru-cache's; the TTL is kept here because peek() must still hand out an expired
// entry (callers check it cheaply and renew() it) and because an entry expires exactly when its ttlMs has passed.
import { LRUCache } from 'lru-cache';

export interface CacheLimits {
  ttlMs: number;
  maxEntries: number;
  maxBytes: number;
}

interface Entry<V> {
  value: V;
  expires: number;
}

export class BoundedCache<V> {
  private readonly entries: LRUCache<string, Entry<V>>;

  constructor(
    private readonly limits: CacheLimits,
    private readonly now: () => number = Date.now,
  ) {
    this.entries = new LRUCache({ max: limits.maxEntries, maxSize: limits.maxBytes });
  }

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expires <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  /**
   * An entry even after its TTL ended (`fresh: false`), for callers that can check cheaply whether it is still
   * right and then renew() it instead of rebuilding it.
   */
  peek(key: string): { value: V; fresh: boolean } | undefined {
    const entry = this.entries.peek(key);
    return entry ? { value: entry.value, fresh: entry.expires > this.now() } : undefined;
  }

  /** Starts a new TTL for an entry that was checked and is still right. */
  renew(key: string): void {
    const entry = this.entries.peek(key);
    if (entry) entry.expires = this.now() + this.limits.ttlMs;
  }

  /** Stores a value; `bytes` is the caller's estimate of its size (e.g. the length of its JSON). */
  set(key: string, value: V, bytes: number): void {
    if (this.limits.ttlMs <= 0 || bytes > this.limits.maxBytes) return;
    // lru-cache takes whole positive sizes only; an entry always costs something.
    this.entries.set(key, { value, expires: this.now() + this.limits.ttlMs }, { size: Math.max(1, Math.ceil(bytes)) });
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  /** Removes every key that starts with the prefix (e.g. everything cached for one webshop). */
  deletePrefix(prefix: string): void {
    for (const key of [...this.entries.keys()]) if (key.startsWith(prefix)) this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }

  get totalBytes(): number {
    return this.entries.calculatedSize;
  }
}
