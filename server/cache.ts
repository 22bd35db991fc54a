// A small bounded cache (entries and approximate bytes) with a time-to-live. The TTL is the documented bound on
// staleness across processes: a process that did not make a change sees it at the latest after ttlMs.
// Within one process, writers invalidate the keys they affect at once.

export interface CacheLimits {
  ttlMs: number;
  maxEntries: number;
  maxBytes: number;
}

interface Entry<V> {
  value: V;
  bytes: number;
  expires: number;
}

export class BoundedCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private bytes = 0;

  constructor(
    private readonly limits: CacheLimits,
    private readonly now: () => number = Date.now,
  ) {}

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expires <= this.now()) {
      this.remove(key, entry);
      return undefined;
    }
    // Map keeps insertion order: re-inserting marks the entry as most recently used.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  /**
   * An entry even after its TTL ended (`fresh: false`), for callers that can check cheaply whether it is still
   * right and then renew() it instead of rebuilding it.
   */
  peek(key: string): { value: V; fresh: boolean } | undefined {
    const entry = this.entries.get(key);
    return entry ? { value: entry.value, fresh: entry.expires > this.now() } : undefined;
  }

  /** Starts a new TTL for an entry that was checked and is still right. */
  renew(key: string): void {
    const entry = this.entries.get(key);
    if (entry) entry.expires = this.now() + this.limits.ttlMs;
  }

  /** Stores a value; `bytes` is the caller's estimate of its size (e.g. the length of its JSON). */
  set(key: string, value: V, bytes: number): void {
    if (this.limits.ttlMs <= 0 || bytes > this.limits.maxBytes) return;
    const old = this.entries.get(key);
    if (old) this.remove(key, old);
    this.entries.set(key, { value, bytes, expires: this.now() + this.limits.ttlMs });
    this.bytes += bytes;
    for (const [k, e] of this.entries) {
      if (this.entries.size <= this.limits.maxEntries && this.bytes <= this.limits.maxBytes) break;
      this.remove(k, e);
    }
  }

  delete(key: string): void {
    const entry = this.entries.get(key);
    if (entry) this.remove(key, entry);
  }

  /** Removes every key that starts with the prefix (e.g. everything cached for one webshop). */
  deletePrefix(prefix: string): void {
    for (const [k, e] of this.entries) if (k.startsWith(prefix)) this.remove(k, e);
  }

  get size(): number {
    return this.entries.size;
  }

  get totalBytes(): number {
    return this.bytes;
  }

  private remove(key: string, entry: Entry<V>): void {
    this.entries.delete(key);
    this.bytes -= entry.bytes;
  }
}
