// Every in-process cache of the service, in one place and one memory budget (docs/decisions/caching.md).
// `Caches` is the process's budget: one lru-cache over all caches, bounded by the estimated bytes of what they hold
// (CACHE_MEMORY_MB); the least recently used entry goes first, whichever cache it belongs to. Each `Cache` is a named
// part of it, built in app.ts, with one rule for what another process's change looks like here:
// - an entry is served for CACHE_TTL_MS after it was loaded; then its next read loads it again (a loader may check a
//   version and hand the old value back: `load(stale)`). A change made by another process is seen within the TTL;
// - this process's own writes delete the entries they change (`delete`, `deleteGroup`) at once. A load that was
//   running when its key was deleted still answers its callers but is not kept (lru-cache aborts it): a read that
//   fetched a document from before a write never puts it back;
// - only a cache that says so (`staleWhileRevalidateMs`, the public read models) serves an entry past its TTL while
//   its reload runs; credentials, sessions and roles never are;
// - `ttlMs: Infinity`: kept until deleted or evicted, for an owner that checks each read itself (the dashboard's views).
import { LRUCache } from 'lru-cache';

export interface CacheBudget {
  /** Estimated bytes of every cache of the process together. */
  maxBytes: number;
  /** How long an entry is served before it is loaded (or checked) again: the bound for other processes' changes. */
  ttlMs: number;
  /** The largest value kept (its estimate); default a quarter of maxBytes. */
  maxEntryBytes?: number;
}

export interface CacheOptions {
  /** Overrides the budget's TTL; Infinity: no expiry. */
  ttlMs?: number;
  /** Past its TTL, an entry is still served (while one reload runs) until it is this much older. */
  staleWhileRevalidateMs?: number;
  /**
   * For a cache whose keys anyone can choose (a widget's parameters): the share of the budget it may fill at most,
   * its own least recently used entries going first, so that it cannot push the others out.
   */
  maxShare?: number;
}

/** What is held per entry: the value, its size estimate, the group it goes with (a shop), when it was loaded. */
interface Held {
  value: unknown;
  bytes: number;
  group: string | undefined;
  loaded: number;
}

interface FetchContext {
  load: (stale: unknown) => Promise<unknown>;
  bytes: (value: unknown) => number;
  group: string | undefined;
}

/** What a key costs besides its value (the key, the LRU's slots): an entry is never free. */
const ENTRY_OVERHEAD_BYTES = 64;
/** Room for the key and the overhead above the largest value (so that a value of maxEntryBytes is kept). */
const KEY_ALLOWANCE_BYTES = 4096;
/** No single entry may take more than this share of the budget (a larger one is not kept: its owner reads per request). */
const MAX_ENTRY_SHARE = 4;

/** What an entry counts against the budget: its value's estimate, its key (UTF-16) and the overhead. */
const sizeOf = (held: Held, key: string): number =>
  Math.max(1, Math.ceil(held.bytes + key.length * 2 + ENTRY_OVERHEAD_BYTES));

export class Caches {
  private readonly entries: LRUCache<string, Held, FetchContext>;
  /** Group → its keys, so that a shop's entries go together without a walk over every key. */
  private readonly groups = new Map<string, Set<string>>();
  private readonly byName = new Map<string, Cache<unknown>>();
  /** The largest entry kept. */
  readonly maxEntryBytes: number;

  constructor(
    readonly budget: CacheBudget,
    private readonly clock: () => number = Date.now,
  ) {
    this.maxEntryBytes = budget.maxEntryBytes ?? Math.max(1, Math.floor(budget.maxBytes / MAX_ENTRY_SHARE));
    const maxEntrySize = Math.max(1, Math.min(budget.maxBytes, this.maxEntryBytes + KEY_ALLOWANCE_BYTES));
    this.entries = new LRUCache<string, Held, FetchContext>({
      maxSize: Math.max(1, budget.maxBytes),
      maxEntrySize,
      // A value over the largest is refused (its load still answers its callers).
      sizeCalculation: (held, key) => (held.bytes > this.maxEntryBytes ? maxEntrySize + 1 : sizeOf(held, key)),
      perf: { now: clock },
      // The clock is read on each check (lru-cache would otherwise keep a reading for 1 ms with a timer per reading):
      // a clock that tests move must be seen at once, and reading it costs less than the timer.
      ttlResolution: 0,
      // A load whose key was deleted meanwhile still answers its callers (with what it read), but is not kept.
      ignoreFetchAbort: true,
      // An entry past its TTL stays until evicted: its next load is handed it (to check a version and keep it).
      noDeleteOnStaleGet: true,
      fetchMethod: async (_key, stale, { context }) => {
        // lru-cache calls this before it records the load under its key: a load that deletes its own key at once
        // (a write of this process) must find it recorded, so the load starts a tick later.
        await Promise.resolve();
        const value = await context.load(stale?.value);
        if (value === undefined) return undefined;
        return { value, bytes: context.bytes(value), group: context.group, loaded: clock() };
      },
      onInsert: (held, key) => this.enlist(held.group, key),
      // lru-cache does not call this for a load under way that is deleted: remove() and removeGroup() do it then.
      dispose: (held, key, reason) => {
        if (reason !== 'set') this.dropped(held.group, key);
      },
    });
  }

  /** A named part of the budget. Each name once per process (it prefixes the keys). */
  cache<V>(name: string, options: CacheOptions = {}): Cache<V> {
    if (this.byName.has(name) || name.includes(':')) throw new Error(`cache name ${name} taken or invalid`);
    const share =
      options.maxShare === undefined ? undefined : Math.max(1, Math.floor(this.budget.maxBytes * options.maxShare));
    const cache = new Cache<V>(
      this,
      name,
      options.ttlMs ?? this.budget.ttlMs,
      options.staleWhileRevalidateMs ?? 0,
      share,
    );
    this.byName.set(name, cache as Cache<unknown>);
    return cache;
  }

  /** Entries held, all caches together. */
  get size(): number {
    return this.entries.size;
  }

  /** Estimated bytes held, all caches together (at most the budget). */
  get totalBytes(): number {
    return this.entries.calculatedSize;
  }

  /** @internal The one LRU (for Cache). */
  get lru(): LRUCache<string, Held, FetchContext> {
    return this.entries;
  }

  /** @internal */
  now(): number {
    return this.clock();
  }

  /** @internal What the LRU holds under the key, as it counts it (0: nothing). */
  sizeOf(key: string): number {
    const held = this.entries.peek(key, { allowStale: true });
    return held ? sizeOf(held, key) : 0;
  }

  /** @internal Deletes one key (a write of this process). */
  remove(key: string): void {
    const held = this.entries.peek(key, { allowStale: true });
    this.entries.delete(key);
    this.dropped(held?.group, key);
  }

  /** @internal Deletes every key of the group. */
  removeGroup(group: string): void {
    const keys = this.groups.get(group);
    if (!keys) return;
    this.groups.delete(group);
    for (const key of keys) {
      this.entries.delete(key);
      this.dropped(undefined, key);
    }
  }

  /** @internal Counts the key in its group: a load under way too, so that deleting the group aborts it. */
  enlist(group: string | undefined, key: string): void {
    if (group === undefined) return;
    const keys = this.groups.get(group) ?? new Set<string>();
    this.groups.set(group, keys);
    keys.add(key);
  }

  /** The key left the LRU: out of its group and its cache's share. */
  private dropped(group: string | undefined, key: string): void {
    this.ungroup(group, key);
    this.byName.get(key.slice(0, key.indexOf(':')))?.forget(key);
  }

  private ungroup(group: string | undefined, key: string): void {
    if (group === undefined) return;
    const keys = this.groups.get(group);
    if (!keys) return;
    keys.delete(key);
    if (keys.size === 0) this.groups.delete(group);
  }
}

/** A named cache in the process's budget: see the top of this file for its rules. */
export class Cache<V> {
  /** With a share: this cache's keys and sizes in their own LRU, whose evictions leave the budget's too. */
  private readonly own: LRUCache<string, number> | undefined;
  private evicting: string | undefined;

  constructor(
    private readonly caches: Caches,
    readonly name: string,
    /** 0: nothing is kept (CACHE_TTL_MS=0); Infinity: no expiry. */
    readonly ttlMs: number,
    private readonly staleMs: number,
    share?: number,
  ) {
    this.own =
      share === undefined
        ? undefined
        : new LRUCache<string, number>({
            maxSize: share,
            sizeCalculation: (size) => size,
            dispose: (_size, key, reason) => {
              if (reason !== 'evict') return;
              this.evicting = key;
              caches.remove(key);
              this.evicting = undefined;
            },
          });
  }

  /** @internal The budget's LRU let the key go. */
  forget(key: string): void {
    if (key !== this.evicting) this.own?.delete(key);
  }

  /** Counts a key just kept against this cache's share. */
  private counted(fullKey: string): void {
    if (!this.own) return;
    const size = this.caches.sizeOf(fullKey);
    if (size === 0 || size > this.own.maxSize) this.own.delete(fullKey);
    else this.own.set(fullKey, size);
  }

  private key(key: string | number): string {
    return `${this.name}:${key}`;
  }

  private group(group: string | number | undefined): string | undefined {
    return group === undefined ? undefined : `${this.name}:${group}`;
  }

  private get lruTtl(): number {
    return this.ttlMs === Infinity ? 0 : this.ttlMs;
  }

  /** The entry while it is fresh (never a stale one). */
  get(key: string | number): V | undefined {
    const fullKey = this.key(key);
    const held = this.caches.lru.get(fullKey, { allowStale: false });
    if (held) this.own?.get(fullKey);
    return held?.value as V | undefined;
  }

  /** The entry, fresh or not, without making it recently used (for an owner that checks it itself). */
  peek(key: string | number): V | undefined {
    return this.caches.lru.peek(this.key(key), { allowStale: true })?.value as V | undefined;
  }

  has(key: string | number): boolean {
    return this.caches.lru.has(this.key(key));
  }

  /** Keeps a value; `bytes` estimates its size in memory. One larger than the budget's share is not kept. */
  set(key: string | number, value: V, bytes: number, group?: string | number): void {
    if (this.ttlMs <= 0) return;
    const held: Held = { value, bytes, group: this.group(group), loaded: this.caches.now() };
    this.caches.lru.set(this.key(key), held, { ttl: this.lruTtl });
    this.counted(this.key(key));
  }

  /**
   * The fresh entry, or the one `load` returns (given the entry past its TTL, if any, so that it can check a
   * version and hand it back). Callers at once share one load. `load` returning undefined: an answer not to keep
   * (e.g. an unknown token). A cache with `staleWhileRevalidateMs` answers with the older entry while the load runs.
   */
  async fetch<L extends V | undefined>(
    key: string | number,
    load: (stale: V | undefined) => Promise<L>,
    options: { bytes: (value: V) => number; group?: string | number },
  ): Promise<L> {
    if (this.ttlMs <= 0) return load(undefined);
    const fullKey = this.key(key);
    const lru = this.caches.lru;
    // A fresh entry without building a load (the hot path: every classic request asks for its shop).
    const fresh = lru.get(fullKey, { allowStale: false });
    if (fresh !== undefined) {
      this.own?.get(fullKey);
      return fresh.value as L;
    }
    const held = lru.peek(fullKey, { allowStale: true });
    const allowStale =
      this.staleMs > 0 && held !== undefined && this.caches.now() - held.loaded <= this.ttlMs + this.staleMs;
    const group = this.group(options.group);
    this.caches.enlist(group, fullKey);
    const found = await lru.fetch(fullKey, {
      allowStale,
      allowStaleOnFetchRejection: this.staleMs > 0,
      ttl: this.lruTtl,
      context: {
        load: load as (stale: unknown) => Promise<unknown>,
        bytes: options.bytes as (value: unknown) => number,
        group,
      },
    });
    if (found !== undefined && found === held) this.own?.get(fullKey);
    else if (found !== undefined) this.counted(fullKey);
    return found?.value as L;
  }

  /** A write of this process changed what the key holds: dropped at once, and a load under way is not kept. */
  delete(key: string | number): void {
    this.caches.remove(this.key(key));
  }

  /** Drops every entry kept with this group (e.g. a shop's widget pages). */
  deleteGroup(group: string | number): void {
    this.caches.removeGroup(`${this.name}:${group}`);
  }
}
