// Imported reviews of a product that carry no rating of the shop (Yotpo product rows, Judge.me, Shopify Product
// Reviews, WooCommerce). They are kept apart from the shop's reviews on purpose: nothing that computes the shop's
// score, ratings_summary.json, ratings.json or its widgets reads this collection, so they can never count there. They
// are stored with their product (id, SKU, GTIN, handle, name, http(s) URL) for the product surfaces to read.
//
// `imported_product_reviews`: `_id` `<shop>|<identity>` (the same key as `import_keys`), so writing a batch again
// after an interruption adds nothing.
import type { Collection, Db } from '../db/index.js';
import { bumpShopCounters, onlyDuplicateKeys, updateBatches } from '../db/index.js';
import { sameAddress } from '../email.js';
import type { ImportedProductReview } from './model.js';

export type { ImportedProductReview };

export class ImportedProductReviewStore {
  private readonly collection: Collection<ImportedProductReview>;
  /** One small document per shop counting writes of its product reviews (`v`): the product index's change signal. */
  private readonly versions: Collection<{ _id: number; v: number }>;
  private readonly listeners: ((shopId: number) => void)[] = [];

  constructor(db: Db) {
    this.collection = db.collection<ImportedProductReview>('imported_product_reviews');
    this.versions = db.collection<{ _id: number; v: number }>('imported_product_review_versions');
  }

  async ensureIndexes(): Promise<void> {
    await this.collection.createIndex({ shopId: 1, 'product.external_id': 1 }, { name: 'shop_product' });
    await this.collection.createIndex({ import_id: 1 }, { name: 'import' });
    await this.collection.createIndex({ shopId: 1, email: 1 }, { name: 'shop_email' });
    await this.collection.createIndex({ shopId: 1, status: 1 }, { name: 'shop_status' });
    await this.collection.createIndex({ shopId: 1, 'product.sku': 1 }, { name: 'shop_product_sku' });
    await this.collection.createIndex({ shopId: 1, 'product.gtin': 1 }, { name: 'shop_product_gtin' });
  }

  /** `later`: the import tells the change once at its end (announce), not per batch (see ReviewStore.importedPublished). */
  async insert(reviews: ImportedProductReview[], options: { later?: boolean } = {}): Promise<void> {
    if (!reviews.length) return;
    try {
      await this.collection.insertMany(reviews, { ordered: false });
    } catch (err) {
      if (!onlyDuplicateKeys(err)) throw err;
    }
    if (!options.later) await this.changed(reviews.map((r) => r.shopId));
  }

  /** The change of the shop's product reviews written with `later`, told once. */
  announce(shopId: number): Promise<void> {
    return this.changed([shopId]);
  }

  /** The published reviews of one product of the shop (for the product surfaces). */
  ofProduct(shopId: number, productId: string): Promise<ImportedProductReview[]> {
    return this.collection
      .find({ shopId, 'product.external_id': productId, status: 'published' })
      .sort({ original_date: -1 })
      .toArray();
  }

  /**
   * The decision on an import's reviews: held ones kept (published) or removed on a ground, or all of them removed
   * (undo). Removal blanks the writer's words and person. Returns how many changed.
   */
  async decide(importId: string, which: 'held' | 'all', decision: 'keep' | { remove: string | null }): Promise<number> {
    const filter = which === 'held' ? { import_id: importId, status: 'held' as const } : { import_id: importId };
    const found = await this.collection.find(filter, { projection: { _id: 1, shopId: 1 } }).toArray();
    const ids = found.map((r) => r._id);
    const set =
      decision === 'keep'
        ? { status: 'published' as const, modified: new Date() }
        : {
            status: 'removed' as const,
            removal_ground: decision.remove,
            name: '',
            email: '',
            text: '',
            title: '',
            reply: null,
            photo_urls: [],
            modified: new Date(),
          };
    let changed = 0;
    for (const part of updateBatches(ids)) {
      const result = await this.collection.bulkWrite(
        part.map((_id) => ({ updateOne: { filter: { _id }, update: { $set: set } } })),
        { ordered: false },
      );
      changed += result.modifiedCount;
    }
    await this.changed(found.map((r) => r.shopId));
    return changed;
  }

  /** Erasure: blanks the writer's name, address and words wherever they wrote under this address. */
  async erase(email: string, shopId?: number): Promise<number> {
    const scope = shopId === undefined ? {} : { shopId };
    const shops = await this.collection
      .find({ ...scope, email: sameAddress(email) }, { projection: { _id: 0, shopId: 1 } })
      .toArray();
    const result = await this.collection.updateMany(
      { ...scope, email: sameAddress(email) },
      { $set: { name: '', email: '', text: '', title: '', photo_urls: [], modified: new Date() } },
    );
    await this.changed(shops.map((r) => r.shopId));
    return result.modifiedCount;
  }

  /** The shop's published product reviews, for its product index (products/read-model.ts); null past `max`. */
  async publishedOfShop(shopId: number, max: number): Promise<ImportedProductReview[] | null> {
    const docs = await this.collection
      .find({ shopId, status: 'published' }, { projection: { email: 0 } })
      .limit(max + 1)
      .toArray();
    return docs.length > max ? null : docs;
  }

  /** The shop's published reviews of a product named by its id, SKU or GTIN (indexed). */
  publishedWithProduct(
    shopId: number,
    field: 'external_id' | 'sku' | 'gtin',
    value: string,
  ): Promise<ImportedProductReview[]> {
    return this.collection
      .find({ shopId, status: 'published', [`product.${field}`]: value }, { projection: { email: 0 } })
      .toArray();
  }

  /** Called after each write with the shops whose product reviews changed (this process's caches). */
  onChange(listener: (shopId: number) => void): void {
    this.listeners.push(listener);
  }

  /** A number that moves with every write of the shop's product reviews, in any process. */
  async versionOf(shopId: number): Promise<number> {
    return (await this.versions.findOne({ _id: shopId }))?.v ?? 0;
  }

  private async changed(shopIds: readonly number[]): Promise<void> {
    for (const shopId of new Set(shopIds)) {
      await bumpShopCounters(this.versions, shopId, { v: 1 });
      for (const listener of this.listeners) listener(shopId);
    }
  }
}
