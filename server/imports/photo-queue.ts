// The photos of imported files still to fetch (issue 19), one work queue (server/queue/work-queue.ts:
// `import_photo_fetches` and `import_photo_fetches_claims`), so that a worker that dies half-way leaves the rest due:
// - `plan:<import>`: queued when an import is done; the worker turns it into one item per photo URL of the import's
//   reviews (a scan of the import's reviews, once) and then finishes it;
// - `plan-products:<import>`: the same for the product reviews only, of an import whose store reviews' URLs were
//   listed by a version that did not fetch product reviews' photos (server/migrations/import-product-photos.ts);
// - `fetch:<review>:<n>`: the review's n-th photo URL, with the photo id it will have (drawn when queued, so that a
//   repeat after a crash finds the photo it already attached instead of adding it twice);
// - `fetch-product:<product review>:<n>`: the same for an imported product review (product-review-store.ts).
// Items are deleted once done or given up: the collection holds only the work in progress.
import type { Db } from '../db/index.js';
import { type TakenItem, WorkQueue } from '../queue/work-queue.js';

export type ImportPhotoWork =
  | {
      kind: 'plan';
      importId: string;
      shopId: number;
      /**
       * The product reviews' URLs only, of those with no photo yet (a backfill): the store reviews' URLs were listed
       * before, and counted `queuedBefore`.
       */
      productsOnly?: { queuedBefore: number };
    }
  | { kind: 'fetch'; importId: string; shopId: number; reviewId: number; url: string; photoId: string }
  // A photo of an imported product review (`imported_product_reviews`, product-review-store.ts), keyed by its `_id`.
  | { kind: 'fetch-product'; importId: string; shopId: number; productReviewId: string; url: string; photoId: string };

export type ImportPhotoItem = TakenItem<ImportPhotoWork>;

const IMPORT_PHOTO_QUEUE = 'import_photo_fetches';

export class ImportPhotoQueue {
  private readonly work: WorkQueue<ImportPhotoWork>;

  constructor(db: Db, now: () => Date = () => new Date()) {
    this.work = new WorkQueue<ImportPhotoWork>(db, IMPORT_PHOTO_QUEUE, now);
  }

  ensureIndexes(): Promise<void> {
    return this.work.ensureIndexes();
  }

  /** The import is done: its photo URLs are to be listed (a no-op when queued already). */
  async plan(importId: string, shopId: number): Promise<boolean> {
    return this.work.enqueue(`plan:${importId}`, { kind: 'plan', importId, shopId });
  }

  /**
   * A backfill: the photo URLs of the import's product reviews are to be listed, its store reviews' having been
   * listed (`queuedBefore` of them) by a version that fetched no product review's photo. Once per import: a no-op
   * while queued.
   */
  async planProductPhotos(importId: string, shopId: number, queuedBefore: number): Promise<boolean> {
    return this.work.enqueue(`plan-products:${importId}`, {
      kind: 'plan',
      importId,
      shopId,
      productsOnly: { queuedBefore },
    });
  }

  /** One photo to fetch: the review's `n`-th URL. */
  async fetch(n: number, work: Extract<ImportPhotoWork, { kind: 'fetch' }>): Promise<void> {
    await this.work.enqueue(`fetch:${work.reviewId}:${n}`, work);
  }

  /** One photo of an imported product review to fetch: its `n`-th URL. */
  async fetchProduct(n: number, work: Extract<ImportPhotoWork, { kind: 'fetch-product' }>): Promise<void> {
    await this.work.enqueue(`fetch-product:${work.productReviewId}:${n}`, work);
  }

  /** The next item due, claimed for `holder`; undefined when none is. */
  async next(holder: string, leaseMs: number): Promise<ImportPhotoItem | undefined> {
    return (await this.work.take(holder, 1, leaseMs))[0];
  }

  finish(holder: string, key: string): Promise<void> {
    return this.work.finish(holder, key);
  }

  /** Not done: due again at `at`, the failed attempt counted. */
  retryLater(holder: string, key: string, at: Date, error: string): Promise<void> {
    return this.work.retryLater(holder, key, at, error);
  }

  /** Not now (another worker runs the shop's import): due again at `at`, no failure counted. */
  async postpone(holder: string, key: string, at: Date): Promise<void> {
    await this.work.postpone(key, at);
    await this.work.release(holder);
  }

  /** The import was undone: what of it is still queued goes (a scan of the small collection). */
  async cancelImport(importId: string): Promise<number> {
    return this.work.forget({ importId });
  }

  /** Items queued (tests, the operator's view). */
  size(): Promise<number> {
    return this.work.size();
  }
}
