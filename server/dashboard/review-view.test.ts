import { describe, expect, it } from 'vitest';
import type { ReviewStore } from '../reviews/store.js';
import type { Review } from '../reviews/model.js';
import { ReviewView, statusOf, type ViewRow } from './review-view.js';
import type { HeldShop } from './shop-view.js';
import { Caches } from '../cache.js';
import { storedReview } from '../../test/review-fixture.js';

const DAY = 86_400_000;

function review(id: number, shopId = 1, changes: Partial<Review> = {}): Review {
  const created = new Date(Date.UTC(2026, 0, 1) + id * DAY);
  return storedReview({
    id,
    shopId,
    name: `Writer ${id}`,
    email: `w${id}@example.com`,
    rating: (id % 5) + 1,
    comment: `Comment number ${id}`,
    language: 'en',
    order: `o-${id}`,
    created,
    modified: created,
    ...changes,
  });
}

/** The part of ReviewStore the view uses, in memory, counting the reads that would be queries. */
class FakeStore {
  docs = new Map<number, Review>();
  counters = new Map<number, number>();
  listeners: ((shopId: number, review: Review) => void)[] = [];
  reads: { shopIds: number[]; since: Date | undefined }[] = [];
  /** While set, reads of changes (a `since`) wait for it: a read that takes as long as the test wants. */
  held: Promise<void> | undefined;

  onChange(listener: (shopId: number, review: Review) => void) {
    this.listeners.push(listener);
  }
  async versionsOf(shopId: number) {
    return { all: this.counters.get(shopId) ?? 0, public: 0 };
  }
  allOfShops(shopIds: number[], batchSize: number) {
    return this.read(shopIds, undefined, batchSize);
  }
  modifiedSince(shopId: number, since: Date | undefined, batchSize: number) {
    return this.read([shopId], since, batchSize);
  }
  private async *read(shopIds: number[], since: Date | undefined, batchSize: number) {
    this.reads.push({ shopIds, since });
    if (since && this.held) await this.held;
    const found = [...this.docs.values()].filter((r) => shopIds.includes(r.shopId) && (!since || r.modified >= since));
    for (let i = 0; i < found.length; i += batchSize) yield found.slice(i, i + batchSize);
  }
  /** A write by another process: stored, counter moved, no listener here. */
  writeElsewhere(r: Review) {
    this.docs.set(r.id, r);
    this.counters.set(r.shopId, (this.counters.get(r.shopId) ?? 0) + 1);
  }
  /** A write by this process: as ReviewStore.afterWrite, counter first, then the listeners. */
  writeHere(r: Review) {
    this.writeElsewhere(r);
    for (const l of this.listeners) l(r.shopId, r);
  }
}

function setUp(maxBytes = 10_000_000, clock = () => Date.now()) {
  const store = new FakeStore();
  for (let id = 1; id <= 30; id++) store.writeElsewhere(review(id));
  // The views alone in a budget of maxBytes, one of which may take all of it.
  const cache = new Caches({ ttlMs: 5000, maxBytes, maxEntryBytes: maxBytes }).cache<HeldShop<ViewRow>>('views', {
    ttlMs: Infinity,
  });
  const view = new ReviewView(store as unknown as ReviewStore, cache, { maxBytes, catchUpWaitMs: 50 }, clock);
  return { store, view };
}

describe('statusOf', () => {
  it('tells the four statuses apart', () => {
    expect(statusOf(review(1))).toBe('published');
    expect(statusOf(review(1, 1, { deleted: true, published: false }))).toBe('deleted');
    expect(statusOf(review(1, 1, { quarantine: true, published: false, confirmToken: 'x' }))).toBe(
      'awaiting_confirmation',
    );
    expect(statusOf(review(1, 1, { quarantine: true, published: false }))).toBe('quarantined');
    expect(statusOf(review(1, 1, { is_spam: true, published: false }))).toBe('quarantined');
  });
});

describe('ReviewView', () => {
  it('reads a shop once, then answers from memory while the counter does not move', async () => {
    const { store, view } = setUp();
    const first = await view.page(1, {}, 0, 5);
    expect(first.total).toBe(30);
    expect(first.items.map((r) => r.id)).toEqual([30, 29, 28, 27, 26]);
    await view.page(1, { rating: 1 }, 0, 5);
    await view.overview(1, new Date());
    expect(store.reads).toHaveLength(1);
  });

  it("applies this process's writes without a query", async () => {
    const { store, view } = setUp();
    await view.page(1, {}, 0, 5);
    store.writeHere(review(31, 1, { comment: 'Brand new' }));
    store.writeHere({
      ...review(5),
      version: 2,
      reply: { text: 'Thanks', date: new Date(), notify: false, revision: 1, notified: null },
    });
    const page = await view.page(1, {}, 0, 1);
    expect(page.items[0]!.comment).toBe('Brand new');
    expect((await view.page(1, { reply: 'with' }, 0, 5)).items.map((r) => r.id)).toEqual([5]);
    expect(store.reads).toHaveLength(1);
  });

  it("reads only what changed after another process's write, from a minute before the last check", async () => {
    let now = Date.UTC(2026, 5, 1);
    const { store, view } = setUp(10_000_000, () => now);
    await view.page(1, {}, 0, 5);
    now += 10_000;
    store.writeElsewhere(review(40, 1, { modified: new Date(now) }));
    store.writeHere(review(41, 1, { modified: new Date(now) }));
    const page = await view.page(1, {}, 0, 5);
    expect(page.items.map((r) => r.id).slice(0, 2)).toEqual([41, 40]);
    expect(store.reads).toHaveLength(2);
    expect(store.reads[1]!.since).toEqual(new Date(Date.UTC(2026, 5, 1) - 60_000));
    // Settled: the next request reads nothing.
    await view.page(1, {}, 0, 5);
    expect(store.reads).toHaveLength(2);
  });

  it("answers from the view as it is when the read of another process's changes takes long, and shows them once it lands", async () => {
    const { store, view } = setUp();
    await view.page(1, {}, 0, 5);
    let release!: () => void;
    store.held = new Promise((ok) => (release = ok));
    store.writeElsewhere(review(50, 1, { modified: new Date() }));
    // The read is held until released: the page does not wait for it (it would wait for ever).
    expect((await view.page(1, {}, 0, 1)).items[0]!.id).toBe(30);
    // A request meanwhile starts no second read.
    await view.page(1, {}, 0, 1);
    expect(store.reads).toHaveLength(2);
    release();
    await store.held;
    await new Promise((r) => setImmediate(r));
    expect((await view.page(1, {}, 0, 1)).items[0]!.id).toBe(50);
    expect(store.reads).toHaveLength(2);
  });

  it('drops a review removed in this process at once (a change no version shows), and reloads in the background', async () => {
    const { store, view } = setUp();
    await view.page(1, {}, 0, 5);
    const gone = store.docs.get(3)!;
    store.docs.delete(3);
    store.counters.set(1, store.counters.get(1)! + 1);
    for (const l of store.listeners) l(1, gone);
    const loads = store.reads.filter((r) => r.since === undefined).length;
    const page = await view.page(1, {}, 0, 100);
    expect(page.total).toBe(29);
    expect(page.items.map((r) => r.id)).not.toContain(3);
    await new Promise((r) => setTimeout(r, 10));
    expect(store.reads.filter((r) => r.since === undefined).length).toBe(loads + 1);
    expect((await view.page(1, {}, 0, 100)).total).toBe(29);
  });

  it('streams a shop too large for its byte bound from the store per request, and holds nothing of it', async () => {
    const { store, view } = setUp(2_000);
    const page = await view.page(1, { q: 'number 1' }, 1, 3);
    // Matches: 1 and 10–19; newest first, skipping one.
    expect(page.total).toBe(11);
    expect(page.items.map((r) => r.id)).toEqual([18, 17, 16]);
    expect(view.holds(1)).toBe(false);
    expect((await view.overview(1, new Date(Date.UTC(2026, 0, 20)))).count).toBe(30);
    expect(store.reads.length).toBeGreaterThanOrEqual(2);
  });

  it('reads shops ahead in one pass, and leaves out the last ones when together they would not fit', async () => {
    const { store, view } = setUp();
    for (let id = 101; id <= 130; id++) store.writeElsewhere(review(id, 2));
    for (let id = 201; id <= 230; id++) store.writeElsewhere(review(id, 3));
    await view.warmUp([2, 1, 3]);
    expect(store.reads).toEqual([{ shopIds: [2, 1, 3], since: undefined }]);
    expect([1, 2, 3].map((shop) => view.holds(shop))).toEqual([true, true, true]);
    expect((await view.page(3, {}, 0, 5)).total).toBe(30);
    expect(store.reads).toHaveLength(1);

    // Room for one shop: the pass keeps the first asked for, and the others read on their first request.
    const small = setUp(12_000);
    for (let id = 101; id <= 130; id++) small.store.writeElsewhere(review(id, 2));
    for (let id = 201; id <= 230; id++) small.store.writeElsewhere(review(id, 3));
    await small.view.warmUp([3, 2, 1]);
    expect([3, 2, 1].map((shop) => small.view.holds(shop))).toEqual([true, false, false]);
    expect((await small.view.page(1, {}, 0, 5)).total).toBe(30);
    expect(small.store.reads.map((r) => r.shopIds)).toEqual([[3, 2, 1], [1]]);
  });

  it('keeps shops in an LRU bounded by bytes', async () => {
    const { store, view } = setUp(12_000);
    for (let id = 101; id <= 130; id++) store.writeElsewhere(review(id, 2));
    await view.page(1, {}, 0, 5);
    expect(view.holds(1)).toBe(true);
    await view.page(2, {}, 0, 5);
    expect(view.holds(2)).toBe(true);
    expect(view.holds(1)).toBe(false);
  });
});
