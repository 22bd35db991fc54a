// The per-shop product index (issue 22): every product of the shop that has reviews, with its reviews, held in
// memory like the shop's other public read models (ratings/read-model.ts). It is loaded from the shop's published
// reviews and its imported product reviews once, and kept until they change: at once for writes of this process
// (app.ts calls `invalidate` from both stores' listeners), and for other processes' writes when the cache's TTL
// passes and either store's per-shop counter (one `_id` read each) shows a change. No periodic scan, and no scan
// per request: on the embedded database a load reads the whole reviews collection, so it happens only on a change.
import type { Cache } from '../cache.js';
import type { ImportedProductReviewStore } from '../imports/product-review-store.js';
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

export interface ShopProducts {
  /** The shop's public review version and imported product review version this copy was loaded at. */
  version: { reviews: number; imported: number };
  lookup: ProductLookup;
  reviewCount: number;
}

const bytesOf = (p: ShopProducts) => 256 + p.lookup.products.length * 512 + p.reviewCount * APPROX_REVIEW_BYTES;

export class ProductIndex {
  constructor(
    private readonly reviews: Pick<ReviewStore, 'publishedForProducts' | 'versionsOf'>,
    private readonly imported: Pick<ImportedProductReviewStore, 'publishedOfShop' | 'versionOf'>,
    private readonly cache: Cache<ShopProducts>,
    /** Makes the photos' addresses absolute: the fragment is shown on the shop's own site. */
    private readonly baseUrl: string,
  ) {}

  /** A write of this process changed the shop's public reviews or its imported product reviews. */
  invalidate(shopId: number): void {
    this.cache.delete(shopId);
  }

  /** The product `asked` names (its id, else SKU, else GTIN); undefined when the shop has no reviews of it. */
  async find(shopId: number, asked: string): Promise<ProductEntry | undefined> {
    return (await this.load(shopId)).lookup.find(asked);
  }

  /** Every reviewed product of the shop (for the feed and the dashboard's Google section). */
  async all(shopId: number): Promise<readonly ProductEntry[]> {
    return (await this.load(shopId)).lookup.products;
  }

  private async load(shopId: number): Promise<ShopProducts> {
    const loaded = await this.cache.fetch(shopId, (stale) => this.revalidate(shopId, stale), { bytes: bytesOf });
    // A shop too large for the cache's largest entry is read per request (its value is still answered).
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
      this.reviews.publishedForProducts(shopId),
      this.imported.publishedOfShop(shopId),
    ]);
    const entries: { info: ProductInfo; review: ProductReview }[] = [];
    for (const r of reviews) entries.push(...productReviewsOf(r, this.baseUrl));
    for (const r of imported) {
      const entry = importedProductReviewOf(r);
      if (entry) entries.push(entry);
    }
    return { version, lookup: new ProductLookup(buildProducts(entries)), reviewCount: entries.length };
  }
}
