// The per-shop product index (issue 22): every product of the shop that has reviews, with its reviews, held in
// memory like the shop's other public read models (ratings/read-model.ts). It is loaded from the shop's published
// reviews and its imported product reviews once, and kept until they change: at once for writes of this process
// (app.ts calls `invalidate` from both stores' listeners), and for other processes' writes when the cache's TTL
// passes and either store's per-shop counter (one `_id` read each) shows a change. No periodic scan, and no scan
// per request: on the embedded database a load reads the whole reviews collection, so it happens only on a change.
// A shop with more reviews than HELD_MAX is not held: its products are asked for one at a time, by indexed queries
// (the reviews' `shop_product_*` indexes), and only the fact that it is too large is kept.
import type { Cache } from '../cache.js';
import type { ImportedProductReview, ImportedProductReviewStore } from '../imports/product-review-store.js';
import type { Review } from '../reviews/model.js';
import type { ReviewStore } from '../reviews/store.js';
import {
  buildProducts,
  importedProductReviewOf,
  ProductLookup,
  productReviewsOf,
  type ProductEntry,
  type ProductInfo,
  type ProductReview,
} from './rules.js';

/** What one product review costs in memory, roughly (texts, photos, the objects around them). */
const APPROX_REVIEW_BYTES = 600;
/** Shops with more published reviews (or imported product reviews) than this are asked per product instead. */
const HELD_MAX = 50_000;

type IdField = 'external_id' | 'sku' | 'gtin';

export interface ShopProducts {
  /** The shop's public review version and imported product review version this copy was loaded at. */
  version: { reviews: number; imported: number };
  /** null: too large to hold, asked per product. */
  lookup: ProductLookup | null;
  reviewCount: number;
}

const bytesOf = (p: ShopProducts) => 256 + (p.lookup?.products.length ?? 0) * 512 + p.reviewCount * APPROX_REVIEW_BYTES;

export class ProductIndex {
  constructor(
    private readonly reviews: Pick<ReviewStore, 'publishedForProducts' | 'publishedWithProduct' | 'versionsOf'>,
    private readonly imported: Pick<
      ImportedProductReviewStore,
      'publishedOfShop' | 'publishedWithProduct' | 'versionOf'
    >,
    private readonly cache: Cache<ShopProducts>,
    /** Makes the photos' addresses absolute: the fragment is shown on the shop's own site. */
    private readonly baseUrl: string,
    private readonly heldMax = HELD_MAX,
  ) {}

  /** A write of this process changed the shop's public reviews or its imported product reviews. */
  invalidate(shopId: number): void {
    this.cache.delete(shopId);
  }

  /** The product `asked` names (its id, else SKU, else GTIN); undefined when the shop has no reviews of it. */
  async find(shopId: number, asked: string): Promise<ProductEntry | undefined> {
    const { lookup } = await this.load(shopId);
    return lookup ? lookup.find(asked) : this.findInDatabase(shopId, asked.trim());
  }

  /**
   * Every reviewed product of the shop (for the feed and the dashboard's Google section); null for a shop too
   * large to hold, whose products only `find` answers.
   */
  async all(shopId: number): Promise<readonly ProductEntry[] | null> {
    return (await this.load(shopId)).lookup?.products ?? null;
  }

  /** A large shop's product: its id first, then SKU, then GTIN, each one indexed query per collection. */
  private async findInDatabase(shopId: number, asked: string): Promise<ProductEntry | undefined> {
    if (!asked) return undefined;
    for (const field of ['external_id', 'sku', 'gtin'] as const satisfies IdField[]) {
      const [reviews, imported] = await Promise.all([
        this.reviews.publishedWithProduct(shopId, field, asked),
        this.imported.publishedWithProduct(shopId, field, asked),
      ]);
      const found = new ProductLookup(buildProducts(this.entriesOf(reviews, imported))).find(asked);
      if (found) return found;
    }
    return undefined;
  }

  private async load(shopId: number): Promise<ShopProducts> {
    const loaded = await this.cache.fetch(shopId, (stale) => this.revalidate(shopId, stale), { bytes: bytesOf });
    // Kept unless larger than the cache's largest entry (HELD_MAX keeps it below on a default budget).
    return loaded ?? this.read(shopId, await this.versionsOf(shopId));
  }

  private async versionsOf(shopId: number): Promise<ShopProducts['version']> {
    const [reviews, imported] = await Promise.all([this.reviews.versionsOf(shopId), this.imported.versionOf(shopId)]);
    return { reviews: reviews.public, imported };
  }

  private async revalidate(shopId: number, stale: ShopProducts | undefined): Promise<ShopProducts> {
    const version = await this.versionsOf(shopId);
    if (stale && stale.version.reviews === version.reviews && stale.version.imported === version.imported) return stale;
    return this.read(shopId, version);
  }

  private async read(shopId: number, version: ShopProducts['version']): Promise<ShopProducts> {
    const [reviews, imported] = await Promise.all([
      this.reviews.publishedForProducts(shopId, this.heldMax),
      this.imported.publishedOfShop(shopId, this.heldMax),
    ]);
    if (!reviews || !imported) return { version, lookup: null, reviewCount: 0 };
    const entries = this.entriesOf(reviews, imported);
    return { version, lookup: new ProductLookup(buildProducts(entries)), reviewCount: entries.length };
  }

  private entriesOf(
    reviews: readonly Review[],
    imported: readonly ImportedProductReview[],
  ): { info: ProductInfo; review: ProductReview }[] {
    const entries: { info: ProductInfo; review: ProductReview }[] = [];
    for (const r of reviews) entries.push(...productReviewsOf(r, this.baseUrl));
    for (const r of imported) {
      const entry = importedProductReviewOf(r);
      if (entry) entries.push(entry);
    }
    return entries;
  }
}
