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
import type { ReviewPhoto } from '../reviews/model.js';
import type { ImportedProductReview } from './model.js';

export type { ImportedProductReview };

/** Queues the deletion of the files of photos taken off (photos/: their worker deletes files and records). */
export type PhotosOff = (photoIds: readonly string[]) => Promise<void>;

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
  async decide(
    importId: string,
    which: 'held' | 'all',
    decision: 'keep' | { remove: string | null },
    photosOff?: PhotosOff,
  ): Promise<number> {
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
    if (decision !== 'keep' && photosOff) await this.takePhotosOff(ids, photosOff);
    await this.changed(found.map((r) => r.shopId));
    return changed;
  }

  /** Erasure: blanks the writer's name, address and words wherever they wrote under this address. */
  async erase(email: string, shopId?: number, photosOff?: PhotosOff): Promise<number> {
    const scope = shopId === undefined ? {} : { shopId };
    const found = await this.collection
      .find({ ...scope, email: sameAddress(email) }, { projection: { _id: 1, shopId: 1 } })
      .toArray();
    const result = await this.collection.updateMany(
      { ...scope, email: sameAddress(email) },
      { $set: { name: '', email: '', text: '', title: '', photo_urls: [], modified: new Date() } },
    );
    if (photosOff)
      await this.takePhotosOff(
        found.map((r) => r._id),
        photosOff,
      );
    await this.changed(found.map((r) => r.shopId));
    return result.modifiedCount;
  }

  /**
   * Photos of reviews just removed or erased: no photo can be added to them any more (addPhoto wants the review not
   * removed and still naming the URL, and both writes blank the URLs), so what they hold now is all they will hold.
   * Their deletion is queued first (`photosOff`), then the list emptied: a crash in between leaves photos listed on a
   * review that is not shown, whose files are deleted already.
   */
  private async takePhotosOff(ids: readonly string[], photosOff: PhotosOff): Promise<void> {
    for (const part of updateBatches([...ids])) {
      const withPhotos = await this.collection
        .find({ _id: { $in: part }, 'photos.0': { $exists: true } }, { projection: { _id: 1, photos: 1 } })
        .toArray();
      if (!withPhotos.length) continue;
      await photosOff(withPhotos.flatMap((r) => (r.photos ?? []).map((p) => p.id)));
      await this.collection.updateMany({ _id: { $in: withPhotos.map((r) => r._id) } }, { $set: { photos: [] } });
    }
  }

  async get(id: string): Promise<ImportedProductReview | null> {
    return this.collection.findOne({ _id: id });
  }

  /** The import's product reviews naming photo URLs (the worker's listing of what to fetch), a batch at a time. */
  async *withPhotoUrlsOf(importId: string, batch: number): AsyncGenerator<ImportedProductReview[]> {
    let after = '';
    for (;;) {
      const docs = await this.collection
        .find(
          { import_id: importId, _id: { $gt: after }, 'photo_urls.0': { $exists: true } },
          { projection: { _id: 1, shopId: 1, status: 1, photo_urls: 1, photos: 1 } },
        )
        .sort({ _id: 1 })
        .limit(batch)
        .toArray();
      if (!docs.length) return;
      yield docs;
      after = docs[docs.length - 1]!._id;
    }
  }

  /**
   * Adds a photo (pending) to the review while it still wants it: not removed, still naming `url` (erasure blanks the
   * URLs), fewer than `max` photos. False otherwise. A quiet write: the photo shows once encoded (setPhoto).
   */
  async addPhoto(id: string, url: string, photo: ReviewPhoto, max: number): Promise<boolean> {
    const result = await this.collection.updateOne(
      { _id: id, status: { $ne: 'removed' }, photo_urls: url, [`photos.${max - 1}`]: { $exists: false } },
      { $push: { photos: photo } },
    );
    return result.modifiedCount === 1;
  }

  /**
   * The photo's encoding is done (or failed): its state and sizes, if it is still `pending` on the review. The
   * review's state after the write (null: no such review, or the photo was no longer pending).
   */
  async setPhoto(id: string, photoId: string, changes: Partial<ReviewPhoto>): Promise<ImportedProductReview | null> {
    const before = await this.collection.findOne({ _id: id });
    const at = (before?.photos ?? []).findIndex((p) => p.id === photoId && p.state === 'pending');
    if (!before || at < 0) return null;
    // By position (photos are only appended, or all taken off at once), checked again by the filter.
    const set = Object.fromEntries(Object.entries(changes).map(([k, v]) => [`photos.${at}.${k}`, v]));
    const result = await this.collection.updateOne(
      { _id: id, [`photos.${at}.id`]: photoId, [`photos.${at}.state`]: 'pending' },
      { $set: set },
    );
    if (result.modifiedCount !== 1) return null;
    await this.changed([before.shopId]);
    return this.collection.findOne({ _id: id });
  }

  /**
   * The operator's decision on a photo held for a look (photos/admin.ts): `shown`, or `removed` (its files are then
   * deleted by the caller's queued task). The review after the write; null when there is no such review or the photo
   * is no longer held there (taken off with its review meanwhile).
   */
  async decideHeldPhoto(
    id: string,
    photoId: string,
    state: 'shown' | 'removed',
  ): Promise<ImportedProductReview | null> {
    const before = await this.collection.findOne({ _id: id });
    const at = (before?.photos ?? []).findIndex((p) => p.id === photoId && p.state === 'held');
    if (!before || at < 0) return null;
    // By position, checked again by the filter, as setPhoto.
    const set =
      state === 'shown'
        ? { [`photos.${at}.state`]: state }
        : { [`photos.${at}.state`]: state, [`photos.${at}.alt`]: '' };
    const result = await this.collection.updateOne(
      { _id: id, [`photos.${at}.id`]: photoId, [`photos.${at}.state`]: 'held' },
      { $set: { ...set, modified: new Date() } },
    );
    if (result.modifiedCount !== 1) return null;
    await this.changed([before.shopId]);
    return this.collection.findOne({ _id: id });
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
