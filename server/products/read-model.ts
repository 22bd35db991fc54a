// The per-shop product index (issue 22): every product of the shop that has reviews, with its reviews, held in
// memory like the shop's other public read models. It is read from the database once (the shop's published reviews
// and its imported product reviews: on the embedded database a scan of the reviews collection) and then kept up to
// date in place, never read whole again while it is held:
// - a review written by this process reaches `reviewWritten` (the store's listener, with the review as written):
//   its entries replace those it had, so only its products are built again (held.ts); imported product reviews
//   change by whole imports, so `importedWritten` has the shop's imported part read again (that collection only)
//   before the next answer;
// - writes of other processes: the mechanism of the dashboard's views (dashboard/shop-view.ts) with the public read
//   models' TTL (server/cache.ts, CACHE_TTL_MS): once the held copy's TTL has passed, the next read compares the
//   shop's public review counter and imported product review counter (one `_id` read each) with what the copy
//   includes plus what this process applied since. When the review counter moved by more, the reviews changed since
//   the last check (less a minute for writes in flight and other clocks) are read (ReviewStore.modifiedSince: one
//   query, few documents; it scans on the embedded database but sends only what changed) and applied as above; when
//   the imported counter moved, that part is read again. So another process's change shows within CACHE_TTL_MS.
//   Reviews are never deleted outright once published (removal is a new version that unpublishes), so the
//   changed reviews show removals too.
// No periodic work: nothing runs unless a request asks and the TTL has passed, and then only the counters are read
// unless something changed. A shop with more reviews than HELD_MAX is not held: its products are asked for one at a
// time, by indexed queries (the reviews' `shop_product_*` indexes), and only the fact that it is too large is kept.
import type { Cache } from '../cache.js';
import type { ImportedProductReview } from '../imports/model.js';
import type { Review } from '../reviews/model.js';
import { HeldProducts, type ReviewEntry } from './held.js';
import { buildProducts, importedProductReviewOf, ProductLookup, productReviewsOf, type ProductEntry } from './rules.js';

/** What one product review costs in memory, roughly (texts, photos, the objects around them). */
const APPROX_REVIEW_BYTES = 600;
/** Shops with more published reviews (or imported product reviews) than this are asked per product instead. */
const HELD_MAX = 50_000;
/** How far before the last check other processes' changes are read: writes in flight then, and their clocks. */
const SLACK_MS = 60_000;
/** Reviews read per batch when other processes' changes are read. */
const BATCH = 500;

type IdField = 'external_id' | 'sku' | 'gtin';
interface Counters {
  reviews: number;
  imported: number;
}

export interface ShopProducts {
  /** The shop's public review counter and imported product review counter the held copy includes. */
  version: Counters;
  /** Writes of this process applied since `version` was read (each moved its counter by one). */
  local: Counters;
  /** This process's clock (ms) just before `version` was read: other processes' changes are read from before it. */
  syncedAt: number;
  /** null: too large to hold, asked per product. */
  held: HeldProducts | null;
  /** This process changed the imported product reviews: that part is read again before the next answer. */
  importedDue: boolean;
}

/** A load under way: this process's writes meanwhile, applied to what it read when it is done. */
interface Loading {
  reviews: Review[];
  imported: boolean;
}

const bytesOf = (p: ShopProducts) =>
  256 + (p.held ? p.held.all.length * 512 + p.held.entryCount * APPROX_REVIEW_BYTES : 0);

type ProductField = 'external_id' | 'sku' | 'gtin';

/** What the index reads of the shop's reviews (reviews/store.ts has them). */
export interface ProductReviews {
  publishedForProducts(shopId: number, max: number): Promise<Review[] | null>;
  publishedWithProduct(shopId: number, field: ProductField, value: string): Promise<Review[]>;
  versionsOf(shopId: number): Promise<{ all: number; public: number }>;
  modifiedSince(shopId: number, since: Date | undefined, batchSize: number): AsyncGenerator<Review[]>;
}

/** What the index reads of the imported product reviews (imports/product-review-store.ts has them). */
export interface ImportedProductReviews {
  publishedOfShop(shopId: number, max: number): Promise<ImportedProductReview[] | null>;
  publishedWithProduct(shopId: number, field: ProductField, value: string): Promise<ImportedProductReview[]>;
  versionOf(shopId: number): Promise<number>;
}

export class ProductIndex {
  private readonly loading = new Map<number, Set<Loading>>();
  /** Reads of a shop's imported part under way (importedDue), shared by the requests that wait for it. */
  private readonly importedReads = new Map<number, Promise<void>>();

  constructor(
    private readonly reviews: ProductReviews,
    private readonly imported: ImportedProductReviews,
    private readonly cache: Cache<ShopProducts>,
    /** Makes the photos' addresses absolute: the fragment is shown on the shop's own site. */
    private readonly baseUrl: string,
    private readonly heldMax = HELD_MAX,
    private readonly clock: () => number = Date.now,
  ) {}

  /** A review of the shop was written by this process (any write: `review` as written). Applied in place. */
  reviewWritten(shopId: number, review: Review): void {
    const entries = productReviewsOf(review, this.baseUrl);
    const held = this.cache.peek(shopId)?.held;
    if (held) {
      held.replace(String(review.id), entries);
      // Grown past the bound: given up, and the next read finds the shop too large.
      if (held.entryCount > this.heldMax) this.cache.delete(shopId);
    }
    for (const load of this.loading.get(shopId) ?? []) load.reviews.push(review);
  }

  /** This process moved the shop's public review counter (one step per call: ReviewStore.onPublicChange). */
  publicWritten(shopId: number): void {
    const held = this.cache.peek(shopId);
    // A load under way read the counter at some point during these writes: it counts none of them (one more read
    // of changes later at worst), as counting one twice would hide another process's write.
    if (held) held.local.reviews++;
  }

  /** This process wrote the shop's imported product reviews (one counter step per call). */
  importedWritten(shopId: number): void {
    const held = this.cache.peek(shopId);
    if (held) {
      held.local.imported++;
      held.importedDue = true;
    }
    for (const load of this.loading.get(shopId) ?? []) load.imported = true;
  }

  /** The product `asked` names (its id, else SKU, else GTIN); undefined when the shop has no reviews of it. */
  async find(shopId: number, asked: string): Promise<ProductEntry | undefined> {
    const { held } = await this.load(shopId);
    return held ? held.find(asked) : this.findInDatabase(shopId, asked.trim());
  }

  /**
   * Every reviewed product of the shop (for the feed and the dashboard's Google section); null for a shop too
   * large to hold, whose products only `find` answers.
   */
  async all(shopId: number): Promise<readonly ProductEntry[] | null> {
    return (await this.load(shopId)).held?.all ?? null;
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
    const loaded =
      (await this.cache.fetch(shopId, (stale) => this.revalidate(shopId, stale), { bytes: bytesOf })) ??
      // Not kept (larger than the cache's largest entry: HELD_MAX keeps it below on a default budget).
      (await this.read(shopId));
    if (loaded.importedDue) await this.readImportedAgain(shopId, loaded);
    return loaded;
  }

  private async counters(shopId: number): Promise<Counters> {
    const [reviews, imported] = await Promise.all([this.reviews.versionsOf(shopId), this.imported.versionOf(shopId)]);
    return { reviews: reviews.public, imported };
  }

  /** Past its TTL: the held copy brought up to date with what other processes changed, or read whole if none. */
  private async revalidate(shopId: number, stale: ShopProducts | undefined): Promise<ShopProducts> {
    if (!stale) return this.read(shopId);
    const local = { ...stale.local };
    const checkedAt = this.clock();
    const now = await this.counters(shopId);
    const held = stale.held;
    if (!held) {
      // Too large to hold: asked again whole only once something changed (it may have shrunk below the bound).
      const same = now.reviews === stale.version.reviews && now.imported === stale.version.imported;
      return same ? stale : this.read(shopId);
    }
    if (now.reviews !== stale.version.reviews + local.reviews) {
      for await (const batch of this.reviews.modifiedSince(shopId, new Date(stale.syncedAt - SLACK_MS), BATCH))
        for (const review of batch) held.replace(String(review.id), productReviewsOf(review, this.baseUrl));
    }
    if (now.imported !== stale.version.imported + local.imported) stale.importedDue = true;
    stale.version = now;
    stale.local = { reviews: stale.local.reviews - local.reviews, imported: stale.local.imported - local.imported };
    stale.syncedAt = checkedAt;
    if (held.entryCount > this.heldMax) return this.read(shopId);
    return stale;
  }

  /** Reads the shop's index whole (the first read, or a shop too large to hold asked again after its TTL). */
  private async read(shopId: number): Promise<ShopProducts> {
    const during: Loading = { reviews: [], imported: false };
    const loads = this.loading.get(shopId) ?? new Set<Loading>();
    loads.add(during);
    this.loading.set(shopId, loads);
    try {
      const syncedAt = this.clock();
      const version = await this.counters(shopId);
      const [reviews, imported] = await Promise.all([
        this.reviews.publishedForProducts(shopId, this.heldMax),
        this.imported.publishedOfShop(shopId, this.heldMax),
      ]);
      const local = { reviews: 0, imported: 0 };
      if (!reviews || !imported) return { version, local, syncedAt, held: null, importedDue: false };
      const held = new HeldProducts(this.entriesOf(reviews, imported));
      // This process's writes during the read: the read may predate them (a replaced entry is the same again).
      for (const review of during.reviews) held.replace(String(review.id), productReviewsOf(review, this.baseUrl));
      return { version, local, syncedAt, held, importedDue: during.imported };
    } finally {
      loads.delete(during);
      if (loads.size === 0) this.loading.delete(shopId);
    }
  }

  /** The imported product reviews read again into the held copy (that collection only), once for all waiting. */
  private readImportedAgain(shopId: number, shop: ShopProducts): Promise<void> {
    let running = this.importedReads.get(shopId);
    if (!running) {
      shop.importedDue = false;
      running = this.imported
        .publishedOfShop(shopId, this.heldMax)
        .then((imported) => {
          if (!imported) this.cache.delete(shopId);
          else shop.held?.replaceImported(this.entriesOf([], imported));
        })
        .catch((err: unknown) => {
          shop.importedDue = true;
          throw err;
        })
        .finally(() => this.importedReads.delete(shopId));
      this.importedReads.set(shopId, running);
    }
    return running;
  }

  private entriesOf(reviews: readonly Review[], imported: readonly ImportedProductReview[]): ReviewEntry[] {
    const entries: ReviewEntry[] = [];
    for (const r of reviews) entries.push(...productReviewsOf(r, this.baseUrl));
    for (const r of imported) {
      const entry = importedProductReviewOf(r, this.baseUrl);
      if (entry) entries.push(entry);
    }
    return entries;
  }
}
