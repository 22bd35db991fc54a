// A shop's records held in memory for the dashboard's lists (reviews, invitations). The embedded database reads a
// whole collection for any filter but `{_id}` (about 300 ms at 20,000 reviews, README "Limits of the embedded
// database"), and the dashboard filters and searches on what no query could use anyway (a substring of a comment,
// of an address). So each shop's records are read once and kept up to date by reading only what changed:
// - writes of this process arrive through the store's listener, row as written, and are applied at once;
// - writes of other processes move the shop's change counter in the store (one `_id` read per request): when it
//   moved by more than this process wrote, the records changed since the last check (less a minute for writes in
//   flight and other clocks) are read again, one query; unchanged shops cost no query but the counter's. That query
//   reads the whole collection on the embedded database (seconds on a busy machine), so an answer waits for it at
//   most `catchUpWaitMs` and otherwise answers from the view as it is: the other process's change shows once the
//   read lands.
// - a removal cannot be read as a change. This process's removals reach the listener (the keys removed, or a row no
//   newer than the one held): the rows go at once and the view is reloaded in the background. Another process's
//   removals move the source's `removals` counter: the view is read again before the answer (removals are rare,
//   and an erased customer must not stay listed). Every view is also reloaded in the background RELOAD_MS after it
//   was loaded, while the old one keeps answering.
// Memory is bounded: views are held in the process's cache budget (server/cache.ts, CACHE_MEMORY_MB, least recently
// used first, an estimate of their bytes; no TTL: the counter is checked on every read instead); a shop whose view
// alone would not fit (more than the budget's largest entry) is not held but streamed from the database per request
// (slow on the embedded database, bounded memory: only the page asked for is kept).
import type { Cache } from '../cache.js';

/** Where a view's rows come from: one store's records of a shop, as rows, and its cross-process change counter. */
export interface RowSource<Row> {
  /**
   * The shop's counters, from any process: `all` moves by one with every write of its records, `removals` with
   * those that removed records (which no read of changes can show: they make the view read again).
   */
  counter(shopId: number): Promise<{ all: number; removals: number }>;
  /** Every record of these shops, in no order (one query for all of them). */
  all(shopIds: readonly number[], batchSize: number): AsyncIterable<{ shopId: number; row: Row }[]>;
  /** The records changed (or added) since `since`. */
  changedSince(shopId: number, since: Date, batchSize: number): AsyncIterable<Row[]>;
  /** Calls `apply` after each write of this process, once per counter step: the row written, or the keys removed. */
  subscribe(apply: (shopId: number, change: RowChange<Row>) => void): void;
}

type RowChange<Row> = { row: Row } | { removed: readonly (string | number)[] };

/** What the view needs to know of its rows. */
export interface RowKind<Row> {
  key(row: Row): string | number;
  /** Grows with each write of the record; a row held at the same or a newer version is not replaced. */
  version(row: Row): number;
  /** A rough size in memory (strings are UTF-16): what the LRU's byte bound counts. */
  bytes(row: Row): number;
  /** The lists' order. */
  newestFirst(a: Row, b: Row): number;
}

export interface ShopViewLimits {
  /** Bytes (estimated) of one shop's view, and of the views read ahead together (the budget's largest entry). */
  maxBytes: number;
  /** How long an answer waits for the read of other processes' changes before it answers from the view as it is. */
  catchUpWaitMs: number;
}

/**
 * What an answer waits at most for the read of other processes' changes: about what that read takes on a quiet
 * machine at 20,000 reviews. A change another process made shows in this process's answers once the read lands (the
 * ratings cache's bound across processes, CACHE_TTL_MS, is of the same kind).
 */
export const CATCH_UP_WAIT_MS = 300;
/** How far before the last check changes are read again: writes in flight then, and other processes' clocks. */
const SLACK_MS = 60_000;
/** A view is read again in full (in the background) this long after it was loaded, for what no counter tells. */
const RELOAD_MS = 15 * 60_000;
/** A shop found too large to hold is streamed per request; whether it still is, is checked again after this. */
const TOO_LARGE_RECHECK_MS = 10 * 60_000;
const BATCH = 1000;

export interface HeldShop<Row> {
  rows: Map<string | number, Row>;
  /** Newest first; null after a change until the next read sorts again. */
  sorted: Row[] | null;
  /** The shop's counter that the rows include. */
  version: number;
  /** Its removals counter that the rows include. */
  removals: number;
  /** Writes of this process applied since `version` was read (each moved the counter by one). */
  local: number;
  /** This process's clock (ms) just before `version` was read: the next delta reads changes from before it. */
  syncedAt: number;
  loadedAt: number;
  bytes: number;
  /** A change the rows cannot show (a removal) was seen: reload in the background. */
  reloadDue: boolean;
}

/** Waits for `work`, but at most `ms`. */
const within = (work: Promise<unknown>, ms: number): Promise<void> =>
  Promise.race([work.then(() => undefined), new Promise<void>((done) => setTimeout(done, ms).unref())]);

export class ShopView<Row> {
  private readonly pending = new Map<number, Promise<HeldShop<Row> | null>>();
  /** Reads of other processes' changes under way, per shop. */
  private readonly catchUps = new Map<number, Promise<void>>();
  private readonly tooLarge = new Map<number, number>();
  /** Shops being read ahead (warmUp), until the pass ends: their view, null if too large, undefined if left out. */
  private readonly warming = new Map<number, Promise<HeldShop<Row> | null | undefined>>();

  /** `shops`: the views held, by shop id (a cache without TTL: see the top of this file). */
  constructor(
    private readonly source: RowSource<Row>,
    private readonly kind: RowKind<Row>,
    private readonly shops: Cache<HeldShop<Row>>,
    private readonly limits: ShopViewLimits,
    private readonly clock: () => number = Date.now,
  ) {
    source.subscribe((shopId, change) => this.apply(shopId, change));
  }

  /** The shop's rows, newest first, brought up to date; null when the shop is too large to hold (see `stream`). */
  async rows(shopId: number): Promise<readonly Row[] | null> {
    const held = await this.held(shopId);
    if (!held) return null;
    held.sorted ??= [...held.rows.values()].sort(this.kind.newestFirst);
    return held.sorted;
  }

  /** A page of the rows that `matches`, newest first, and how many match. */
  async page(
    shopId: number,
    matches: (row: Row) => boolean,
    offset: number,
    limit: number,
  ): Promise<{ items: Row[]; total: number }> {
    const rows = await this.rows(shopId);
    if (!rows) return this.streamedPage(shopId, matches, offset, limit);
    const items: Row[] = [];
    let total = 0;
    for (const row of rows) {
      if (!matches(row)) continue;
      if (total >= offset && items.length < limit) items.push(row);
      total++;
    }
    return { items, total };
  }

  /** Every row of the shop from the database, in no order (for a shop too large to hold). */
  async stream(shopId: number, visit: (row: Row) => void): Promise<void> {
    for await (const batch of this.source.all([shopId], BATCH)) for (const { row } of batch) visit(row);
  }

  /** Whether the shop's view is held (for the benchmark and tests). */
  holds(shopId: number): boolean {
    return this.shops.has(shopId);
  }

  /**
   * Reads these shops' views ahead, so that their first dashboard request after a start does not wait: in one pass
   * (on the embedded database one read of the whole collection for all of them, not one each). Shops are given
   * most wanted first; those that no longer fit in the bound are left to their first request, as is everything
   * after a failure. A request for one of them meanwhile waits for the pass.
   */
  async warmUp(shopIds: Iterable<number>): Promise<void> {
    const wanted = [...new Set(shopIds)].filter((id) => !this.shops.has(id) && !this.pending.has(id));
    if (wanted.length === 0) return;
    const pass = this.loadAll(wanted).catch(() => new Map<number, HeldShop<Row> | null | undefined>());
    for (const id of wanted)
      this.warming.set(
        id,
        pass.then((views) => views.get(id)),
      );
    await pass;
    for (const id of wanted) this.warming.delete(id);
  }

  /** A write of this process: applied at once, so the merchant sees their own reply or mark without a query. */
  private apply(shopId: number, change: RowChange<Row>): void {
    const held = this.shops.peek(shopId);
    if (!held) return;
    held.local++;
    if ('removed' in change) {
      for (const key of change.removed) this.drop(held, key);
      // This removal moved the removals counter too: it is no other process's.
      held.removals++;
      // What else went with them (written meanwhile) shows at the reload.
      held.reloadDue = true;
      return;
    }
    const before = held.rows.get(this.kind.key(change.row));
    // No newer version: not a write of the record but its removal, which no read of changes can show.
    if (before && this.kind.version(before) >= this.kind.version(change.row)) {
      this.drop(held, this.kind.key(change.row));
      held.reloadDue = true;
      return;
    }
    this.put(held, change.row);
    this.shops.set(shopId, held, held.bytes);
  }

  private drop(held: HeldShop<Row>, key: string | number): void {
    const before = held.rows.get(key);
    if (!before) return;
    held.rows.delete(key);
    held.bytes -= this.kind.bytes(before);
    held.sorted = null;
  }

  private put(held: HeldShop<Row>, row: Row): void {
    const key = this.kind.key(row);
    const before = held.rows.get(key);
    if (before && this.kind.version(before) >= this.kind.version(row)) return;
    if (before) held.bytes -= this.kind.bytes(before);
    held.rows.set(key, row);
    held.bytes += this.kind.bytes(row);
    held.sorted = null;
  }

  /** The shop's view, brought up to date; null when the shop is too large to hold. Callers at once share one read. */
  private async held(shopId: number): Promise<HeldShop<Row> | null> {
    const warming = this.warming.get(shopId);
    // Read ahead by warmUp; undefined: left out of it, so read now.
    if (warming && (await warming) !== undefined) return this.refresh(shopId);
    const running = this.pending.get(shopId);
    if (running) return running;
    const work = this.refresh(shopId).finally(() => this.pending.delete(shopId));
    this.pending.set(shopId, work);
    return work;
  }

  private async refresh(shopId: number): Promise<HeldShop<Row> | null> {
    const held = this.shops.get(shopId);
    if (!held) {
      const since = this.tooLarge.get(shopId);
      if (since !== undefined && this.clock() - since < TOO_LARGE_RECHECK_MS) return null;
      return this.load(shopId);
    }
    const running = this.catchUps.get(shopId);
    if (running) {
      await within(running, this.limits.catchUpWaitMs);
      return held;
    }
    const checkedAt = this.clock();
    const localBefore = held.local;
    const { all: counter, removals } = await this.source.counter(shopId);
    if (removals !== held.removals) {
      // Another process removed records (an erasure): read the shop again before answering.
      return this.load(shopId);
    }
    if (counter !== held.version + localBefore) {
      // Another process wrote: read what changed since the last check. On the embedded database that query reads
      // the whole collection, so the answer waits for it only so long; the view shows the changes once it lands.
      const catchUp = this.catchUp(shopId, held, counter, localBefore, checkedAt).finally(() =>
        this.catchUps.delete(shopId),
      );
      this.catchUps.set(shopId, catchUp);
      await within(catchUp, this.limits.catchUpWaitMs);
      return held;
    }
    held.version = counter;
    held.local -= localBefore;
    held.syncedAt = checkedAt;
    return this.settle(shopId, held);
  }

  private async catchUp(
    shopId: number,
    held: HeldShop<Row>,
    counter: number,
    localBefore: number,
    checkedAt: number,
  ): Promise<void> {
    try {
      for await (const batch of this.source.changedSince(shopId, new Date(held.syncedAt - SLACK_MS), BATCH)) {
        for (const row of batch) this.put(held, row);
      }
    } catch {
      // The next request tries again (the counter still differs); meanwhile the view answers as it is.
      return;
    }
    held.version = counter;
    held.local -= localBefore;
    held.syncedAt = checkedAt;
    if (this.shops.peek(shopId) === held) this.settle(shopId, held);
  }

  /** Keeps the view in the LRU at its new size (or gives it up when it outgrew the bound); reloads when due. */
  private settle(shopId: number, held: HeldShop<Row>): HeldShop<Row> | null {
    if (held.bytes > this.limits.maxBytes) {
      this.shops.delete(shopId);
      this.tooLarge.set(shopId, this.clock());
      return null;
    }
    this.shops.set(shopId, held, held.bytes);
    if (held.reloadDue || this.clock() - held.loadedAt >= RELOAD_MS) this.reloadInBackground(shopId, held);
    return held;
  }

  private reloadInBackground(shopId: number, held: HeldShop<Row>): void {
    held.reloadDue = false;
    held.loadedAt = this.clock();
    // The old view answers meanwhile; the new one replaces it when complete (its counter check then reads what
    // this process wrote during the load, since those writes went to the old one).
    this.load(shopId).catch(() => {
      held.reloadDue = true;
    });
  }

  /** Reads the shop's rows into a new view; null (and nothing kept) when they would not fit. */
  private async load(shopId: number): Promise<HeldShop<Row> | null> {
    return (await this.loadAll([shopId])).get(shopId) ?? null;
  }

  /**
   * Reads these shops' rows into new views in one pass: a view, or null for a shop whose view alone would not fit
   * (nothing kept of it). Together they stay within the bound: when they would not, the shops last in the list are
   * dropped from the pass (undefined), so memory never holds more than the bound and a batch.
   */
  private async loadAll(shopIds: readonly number[]): Promise<Map<number, HeldShop<Row> | null | undefined>> {
    const syncedAt = this.clock();
    const views = new Map<number, HeldShop<Row> | null | undefined>();
    for (const shopId of shopIds) {
      const { all: counter, removals } = await this.source.counter(shopId);
      views.set(shopId, {
        rows: new Map(),
        sorted: null,
        version: counter,
        removals,
        local: 0,
        syncedAt,
        loadedAt: syncedAt,
        bytes: 256,
        reloadDue: false,
      });
    }
    const bytesHeld = () => [...views.values()].reduce((sum, v) => sum + (v?.bytes ?? 0), 0);
    for await (const batch of this.source.all(shopIds, BATCH)) {
      for (const { shopId, row } of batch) {
        const held = views.get(shopId);
        if (held) this.put(held, row);
      }
      for (const [shopId, held] of views) if (held && held.bytes > this.limits.maxBytes) views.set(shopId, null);
      for (let i = shopIds.length - 1; i > 0 && bytesHeld() > this.limits.maxBytes; i--) {
        if (views.get(shopIds[i]!)) views.set(shopIds[i]!, undefined);
      }
    }
    for (const [shopId, held] of views) {
      if (held) {
        this.tooLarge.delete(shopId);
        this.shops.set(shopId, held, held.bytes);
      } else if (held === null) {
        this.shops.delete(shopId);
        this.tooLarge.set(shopId, this.clock());
      }
    }
    return views;
  }

  /** A page of a shop too large to hold: one pass over its records, keeping only the newest offset+limit matches. */
  private async streamedPage(
    shopId: number,
    matches: (row: Row) => boolean,
    offset: number,
    limit: number,
  ): Promise<{ items: Row[]; total: number }> {
    const keep = offset + limit;
    const order = this.kind.newestFirst;
    const best: Row[] = [];
    let total = 0;
    await this.stream(shopId, (row) => {
      if (!matches(row)) return;
      total++;
      if (best.length === keep && order(row, best[keep - 1]!) >= 0) return;
      let lo = 0;
      let hi = best.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (order(best[mid]!, row) <= 0) lo = mid + 1;
        else hi = mid;
      }
      best.splice(lo, 0, row);
      if (best.length > keep) best.pop();
    });
    return { items: best.slice(offset), total };
  }
}
