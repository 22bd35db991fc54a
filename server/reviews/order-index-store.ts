// Which reviews were written for an order: (shop, order) → review ids, in a small collection keyed by `_id`.
// Add invitation asks for every order it queues with a pop-up answer (has the customer reviewed it already? does its
// address prove pop-up reviews?), and reminders ask before they go out. On FerretDB a filter on the reviews'
// `shopId` and `order` reads every review; this is one look-up by `_id`, which usually finds nothing, so the reviews
// are only read (by id) for an order that has some.
//
// Kept by the review store: an id is added when a review with an order is created; erasure forgets the orders it
// erased. An entry may name a review whose order changed since (erasure blanks it): readers check the review.
import type { Collection, Db } from '../db/index.js';
import { isDuplicateKey } from '../db/index.js';

interface OrderEntry {
  /** `<shop id>\n<order>` (a newline occurs in neither). */
  _id: string;
  ids: number[];
}

const keyOf = (shopId: number, order: string): string => `${shopId}\n${order}`;
const MIGRATION = 'reviews.order-index';

export class ReviewOrderIndex {
  private readonly entries: Collection<OrderEntry>;
  private readonly migrations: Collection<{ _id: string; done: Date }>;

  constructor(db: Db) {
    this.entries = db.collection<OrderEntry>('review_orders');
    this.migrations = db.collection<{ _id: string; done: Date }>('migrations');
  }

  /**
   * Records that review `id` was written for the order (nothing for a review without an order). An insert: on
   * FerretDB an update scans the collection, which here grows with the reviews. Only an order's second review
   * (rare) takes the update.
   */
  async add(shopId: number, order: string, id: number): Promise<void> {
    if (!order) return;
    const _id = keyOf(shopId, order);
    try {
      await this.entries.insertOne({ _id, ids: [id] });
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
      await this.entries.updateOne({ _id }, { $addToSet: { ids: id } });
    }
  }

  /** The ids of the reviews written for the order (one look-up by `_id`). */
  async ids(shopId: number, order: string): Promise<number[]> {
    if (!order) return [];
    return (await this.entries.findOne({ _id: keyOf(shopId, order) }))?.ids ?? [];
  }

  /** Erasure: the orders go from the index with the customer's other records. */
  async forget(orders: readonly { shopId: number; order: string }[]): Promise<void> {
    if (orders.length) await this.entries.deleteMany({ _id: { $in: orders.map((o) => keyOf(o.shopId, o.order)) } });
  }

  /**
   * Once per database (a marker in `migrations`): indexes the reviews written before the index existed. One scan of
   * the reviews at the first start-up; adding is idempotent, so a start-up that dies half-way just does it again.
   */
  async backfill(reviews: () => AsyncIterable<{ id: number; shopId: number; order: string }>): Promise<void> {
    if (await this.migrations.findOne({ _id: MIGRATION })) return;
    const byOrder = new Map<string, number[]>();
    for await (const r of reviews()) {
      if (!r.order) continue;
      const key = keyOf(r.shopId, r.order);
      byOrder.set(key, [...(byOrder.get(key) ?? []), r.id]);
    }
    // Inserts (cheap on FerretDB, where updates scan); an entry a new review wrote meanwhile is merged by update.
    const entries = [...byOrder].map(([_id, ids]) => ({ _id, ids }));
    for (let i = 0; i < entries.length; i += 1000) {
      const chunk = entries.slice(i, i + 1000);
      try {
        await this.entries.insertMany(chunk, { ordered: false });
      } catch (err) {
        const raw = (err as { writeErrors?: { index: number; code?: number } | { index: number; code?: number }[] })
          .writeErrors;
        if (raw === undefined) throw err;
        const errors = Array.isArray(raw) ? raw : [raw];
        if (!errors.every((e) => e.code === 11000)) throw err;
        for (const e of errors) {
          const entry = chunk[e.index]!;
          await this.entries.updateOne({ _id: entry._id }, { $addToSet: { ids: { $each: entry.ids } } });
        }
      }
    }
    await this.migrations.updateOne({ _id: MIGRATION }, { $set: { done: new Date() } }, { upsert: true });
  }
}
