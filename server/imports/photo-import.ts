// The photo URLs of an imported file become photos of their reviews (issue 19): never shown or hot-linked as URLs,
// they are fetched by the worker once the import is done (photo-fetch.ts: the webhooks' address rules, 10 MB, one
// deadline), checked from their bytes like an upload and handed to the photo pipeline (photos/: the same record, file
// and encoding task as an uploaded photo; the photo worker re-encodes it and drops every piece of metadata). A photo
// that cannot be fetched or read is counted on the import (`photos.failed`, with the latest reason) and the review is
// kept as it is. At most PHOTO_LIMITS.perReview photos per review, whatever the file names. Imported product-only
// reviews (imported_product_reviews) get theirs the same way, on their own `photos` list (attachToProductReview).
//
// Photos of imported reviews follow their review like any other photo: a removal or erasure takes them off (their
// files are deleted by the photo worker), undoing the import takes them with its reviews, and a URL is only ever
// fetched for a review that still names it (a removed or erased review's URLs are blanked) and whose import is done.
// A bulk import sends no per-review event: attaching a photo is a quiet write (no webhook event, no e-mail).
import { Readable } from 'node:stream';
import { JOB } from '../jobs/names.js';
import { detectPhoto, PHOTO_LIMITS } from '../photos/detect.js';
import { discardUploads, newPhotoId } from '../photos/service.js';
import type { Review, ReviewPhoto } from '../reviews/model.js';
import type { Services } from '../services.js';
import { fetchPhoto, type PhotoFetch } from './photo-fetch.js';
import type { ImportPhotoItem, ImportPhotoWork } from './photo-queue.js';
import type { Import } from './store.js';

/** What fetching and attaching an import's photos uses of the services. */
type PhotoImportDeps = Pick<
  Services,
  | 'config'
  | 'importPhotos'
  | 'imports'
  | 'log'
  | 'now'
  | 'photoStorage'
  | 'photos'
  | 'productReviews'
  | 'reviews'
  | 'scheduler'
>;

export const IMPORT_PHOTO_JOB = 'imports.photos';

/** Items one run of the drain works through before it hands the worker back (and queues itself again). */
const PER_RUN = 50;
/** A claim outlives one fetch (20 s) and its write on a busy machine. */
const LEASE_MS = 120_000;
/** A photo host that failed in passing (timeout, 5xx) is asked again after these waits, then counted as failed. */
const RETRY_MINUTES = [1, 10, 60];
/** The import's run holds the shop (or is finishing): a photo, or the listing, waits this long for its turn. */
const BUSY_WAIT_MS = 30_000;
/** Reviews read at a time when the import's URLs are listed. */
const PLAN_BATCH = 500;

/** The import is done: its photos are queued to be listed and fetched by the worker. */
export async function queueImportPhotos(
  services: Pick<Services, 'importPhotos' | 'scheduler'>,
  doc: Pick<Import, '_id' | 'shopId'>,
): Promise<void> {
  await services.importPhotos.plan(doc._id, doc.shopId);
  services.scheduler.trigger(IMPORT_PHOTO_JOB);
}

/** The import is undone: its photos still queued are not fetched. */
export async function cancelImportPhotos(services: Pick<Services, 'importPhotos'>, importId: string): Promise<void> {
  await services.importPhotos.cancelImport(importId);
}

/**
 * Reviews an import removed in bulk (undo, "remove all" held ones) without the write path's followers: their photos,
 * taken off by that write, have their files deleted by the photo worker.
 */
export async function dropPhotosOfRemoved(
  services: Pick<Services, 'photos' | 'scheduler'>,
  removed: readonly Review[],
): Promise<void> {
  const ids = removed.filter((r) => r.deleted).flatMap((r) => (r.photos ?? []).map((p) => p.id));
  if (!ids.length) return;
  await services.photos.addTasks('delete', ids);
  services.scheduler.trigger(JOB.photos);
}

/** The worker's drain: one item at a time, at most PER_RUN per run. */
export async function drainImportPhotos(services: PhotoImportDeps, holder: string): Promise<void> {
  for (let n = 0; n < PER_RUN; n++) {
    const item = await services.importPhotos.next(holder, LEASE_MS);
    if (!item) return;
    const work = item.payload;
    if (work.kind === 'plan') {
      if (await plan(services, work)) await services.importPhotos.finish(holder, item._id);
      else await services.importPhotos.postpone(holder, item._id, new Date(services.now().getTime() + BUSY_WAIT_MS));
    } else {
      await fetchOne(services, holder, item, work);
    }
  }
  // More may be due: the next run takes them, after whatever else the worker has to do.
  services.scheduler.trigger(IMPORT_PHOTO_JOB);
}

/**
 * The photo URLs of the import's reviews, each queued once (a repeat after a crash queues nothing new). False: not
 * yet (the plan is queued just before the import is marked done).
 */
async function plan(
  services: Pick<Services, 'importPhotos' | 'imports' | 'productReviews' | 'reviews'>,
  work: Extract<ImportPhotoWork, { kind: 'plan' }>,
): Promise<boolean> {
  const doc = await services.imports.get(work.shopId, work.importId);
  if (doc?.status === 'running') return false;
  if (doc?.status !== 'done') return true;
  const backfill = work.productsOnly;
  let queued = 0;
  for await (const batch of backfill ? [] : services.reviews.ofImport(work.shopId, work.importId, PLAN_BATCH)) {
    for (const review of batch) {
      const urls = photoUrlsOf(review);
      for (const [n, url] of urls.entries()) {
        await services.importPhotos.fetch(n, {
          kind: 'fetch',
          importId: work.importId,
          shopId: work.shopId,
          reviewId: review.id,
          url,
          photoId: newPhotoId(),
        });
      }
      queued += urls.length;
    }
  }
  // Photos of the import's product-only reviews (Judge.me, Yotpo product rows, …): stored on those reviews.
  for await (const batch of services.productReviews.withPhotoUrlsOf(work.importId, PLAN_BATCH)) {
    for (const review of batch) {
      // A backfill leaves alone the reviews this version listed already (they have photos).
      if (backfill && review.photos) continue;
      const urls = review.status === 'removed' ? [] : [...new Set(review.photo_urls)].slice(0, PHOTO_LIMITS.perReview);
      for (const [n, url] of urls.entries()) {
        await services.importPhotos.fetchProduct(n, {
          kind: 'fetch-product',
          importId: work.importId,
          shopId: work.shopId,
          productReviewId: review._id,
          url,
          photoId: newPhotoId(),
        });
      }
      queued += urls.length;
    }
  }
  // Set, not added: listing again after a crash counts the same URLs.
  await services.imports.countPhotos(work.importId, {}, { queued: (backfill?.queuedBefore ?? 0) + queued });
  return true;
}

/** The review's URLs to fetch: distinct, http(s) (checked when read), the first PHOTO_LIMITS.perReview. */
const photoUrlsOf = (review: Pick<Review, 'photo_urls' | 'deleted'>): string[] =>
  review.deleted ? [] : [...new Set(review.photo_urls ?? [])].slice(0, PHOTO_LIMITS.perReview);

type FetchWork = Extract<ImportPhotoWork, { kind: 'fetch' | 'fetch-product' }>;

async function fetchOne(
  services: PhotoImportDeps,
  holder: string,
  item: ImportPhotoItem,
  work: FetchWork,
): Promise<void> {
  const queue = services.importPhotos;
  const state = await ownerState(services, work);
  if (state === 'attached' && work.kind === 'fetch-product') {
    // A run that died between the product review's write and the record's: the record names its owner now.
    await services.photos.attachToProductReview(work.photoId, work.productReviewId);
  }
  if (state !== 'wanted' || (await services.imports.get(work.shopId, work.importId))?.status !== 'done') {
    // Not wanted any more, or attached by a run that died before it finished the item.
    await queue.finish(holder, item._id);
    return;
  }
  const fetched = await fetchPhoto(work.url, {
    allowedHosts: services.config.importPhotoAllowedHosts,
    userAgent: `${services.config.brandName} review import (photos of imported reviews)`,
  });
  const outcome = fetched.ok ? checked(fetched.bytes) : fetched;
  if (!outcome.ok) {
    if (outcome.transient && item.attempts < RETRY_MINUTES.length) {
      const at = new Date(services.now().getTime() + RETRY_MINUTES[item.attempts]! * 60_000);
      await queue.retryLater(holder, item._id, at, outcome.reason);
      return;
    }
    await services.imports.countPhotos(
      work.importId,
      { failed: 1 },
      { last_failure: `${work.url}: ${outcome.reason}` },
    );
    services.log.info({ import: work.importId, photo: work.photoId, reason: outcome.reason }, 'import photo failed');
    await queue.finish(holder, item._id);
    return;
  }
  // The shop's lock (store.ts, the import worker's too): an undo of this import (run by the import worker) does not
  // remove the review while its photo is being attached, and the write below sees the import's latest status.
  if (!(await services.imports.lockShop(work.shopId, holder, LEASE_MS))) {
    await queue.postpone(holder, item._id, new Date(services.now().getTime() + BUSY_WAIT_MS));
    return;
  }
  try {
    const attached =
      work.kind === 'fetch'
        ? await attach(services, work, outcome.bytes)
        : await attachToProductReview(services, work, outcome.bytes);
    if (attached) await services.imports.countPhotos(work.importId, { fetched: 1 });
  } finally {
    await services.imports.unlockShop(work.shopId, holder);
  }
  await queue.finish(holder, item._id);
}

/** Whether the review (or product review) still wants the photo, or has it already. */
async function ownerState(
  services: Pick<Services, 'productReviews' | 'reviews'>,
  work: FetchWork,
): Promise<'wanted' | 'attached' | 'unwanted'> {
  if (work.kind === 'fetch') {
    const review = await services.reviews.get(work.reviewId);
    if (!stillWanted(review, work)) return 'unwanted';
    return review.photos?.some((p) => p.id === work.photoId) ? 'attached' : 'wanted';
  }
  const review = await services.productReviews.get(work.productReviewId);
  if (!review || review.status === 'removed' || review.import_id !== work.importId) return 'unwanted';
  if (review.photos?.some((p) => p.id === work.photoId)) return 'attached';
  if (!review.photo_urls.includes(work.url)) return 'unwanted';
  return (review.photos ?? []).length < PHOTO_LIMITS.perReview ? 'wanted' : 'unwanted';
}

/** The bytes are a photo we read (format and size from the header, as for an upload), or why not. */
function checked(bytes: Buffer): { ok: true; bytes: Buffer } | Extract<PhotoFetch, { ok: false }> {
  const detection = detectPhoto(bytes, true);
  if (detection?.ok) return { ok: true, bytes };
  const reason =
    detection?.reason === 'too_many_pixels'
      ? `more than ${PHOTO_LIMITS.pixels / 1_000_000} megapixels`
      : 'not a JPEG, PNG, WebP or AVIF photo';
  return { ok: false, reason, transient: false };
}

/** The review still wants this photo: not removed, not erased (either blanks the URLs), room for one more. */
function stillWanted(review: Review | null, work: Extract<ImportPhotoWork, { kind: 'fetch' }>): review is Review {
  if (!review || review.deleted || review.import_id !== work.importId) return false;
  if (!(review.photo_urls ?? []).includes(work.url)) return false;
  const live = (review.photos ?? []).filter((p) => p.state !== 'removed' && p.id !== work.photoId);
  return live.length < PHOTO_LIMITS.perReview;
}

/**
 * Stores the bytes as an upload (record first, then the file, as an upload does), hands the `pending` photo to its
 * owner (`addTo`: false when the owner no longer wants it, and the upload is discarded), then names the owner on the
 * record (`recordOwner`) and wakes the photo worker, which re-encodes it. A record left by a run that died half-way is
 * started again from nothing.
 */
async function storeUpload(
  services: Pick<Services, 'imports' | 'photoStorage' | 'photos' | 'scheduler'>,
  work: { photoId: string; shopId: number; importId: string },
  bytes: Buffer,
  addTo: (pending: ReviewPhoto) => Promise<boolean>,
  recordOwner: (id: string) => Promise<void>,
): Promise<boolean> {
  const { photos, photoStorage } = services;
  const id = work.photoId;
  if (await photos.get(id)) await discardUploads(services, [id]);
  if ((await services.imports.get(work.shopId, work.importId))?.status !== 'done') return false;
  await photos.recordUpload(id, work.shopId);
  try {
    await photoStorage.write(`${id}.upload`, Readable.from([bytes]));
    await photos.setSize(id, bytes.length);
    const pending: ReviewPhoto = { id, state: 'pending', alt: '', width: 0, height: 0, thumbWidth: 0, thumbHeight: 0 };
    if (!(await addTo(pending))) {
      await discardUploads(services, [id]);
      return false;
    }
    await recordOwner(id);
    services.scheduler.trigger(JOB.photos);
    return true;
  } catch (err) {
    await discardUploads(services, [id]);
    throw err;
  }
}

/** A store review's photo: added while the review still wants it (stillWanted). */
function attach(
  services: Pick<Services, 'imports' | 'photoStorage' | 'photos' | 'reviews' | 'scheduler'>,
  work: Extract<ImportPhotoWork, { kind: 'fetch' }>,
  bytes: Buffer,
) {
  const addTo = async (pending: ReviewPhoto) => {
    let added = false;
    await services.reviews.update(
      work.reviewId,
      (before) => {
        added = stillWanted(before, work);
        return added ? { photos: [...(before.photos ?? []), pending] } : {};
      },
      { quiet: true },
    );
    return added;
  };
  return storeUpload(services, work, bytes, addTo, (id) => services.photos.attach([id], work.reviewId));
}

/**
 * An imported product review's photo: added while the review is not removed, still names the URL and has room; the
 * record then names its owner (photos/store.ts `productReviewId`).
 */
function attachToProductReview(
  services: Pick<Services, 'imports' | 'photoStorage' | 'photos' | 'productReviews' | 'scheduler'>,
  work: Extract<ImportPhotoWork, { kind: 'fetch-product' }>,
  bytes: Buffer,
) {
  const addTo = (pending: ReviewPhoto) =>
    services.productReviews.addPhoto(work.productReviewId, work.url, pending, PHOTO_LIMITS.perReview);
  return storeUpload(services, work, bytes, addTo, (id) =>
    services.photos.attachToProductReview(id, work.productReviewId),
  );
}

/** Photos of imported product reviews taken off (removed, undone, erased): their files go with the photo worker. */
export async function dropProductReviewPhotos(
  services: Pick<Services, 'photos' | 'scheduler'>,
  photoIds: readonly string[],
): Promise<void> {
  if (!photoIds.length) return;
  await services.photos.addTasks('delete', photoIds);
  services.scheduler.trigger(JOB.photos);
}
