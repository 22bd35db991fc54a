// The photo worker (`photos.work` drain): takes the small to-do list (store.ts) and does one task at a time, each
// under a claim: re-encoding an upload (encode.ts) then showing it with its review (or holding it for the operator),
// or deleting every file of a photo that was taken off. Uploads no review claimed within ORPHAN_AFTER_MS (the request
// failed between the file and the review) are deleted by their own encoding task.
import { randomUUID } from 'node:crypto';
import { JOB } from '../jobs/names.js';
import type { ReviewPhoto } from '../reviews/model.js';
import type { Services } from '../services.js';
import { encodePhoto } from './encode.js';
import { fileNames } from './service.js';
import type { PhotoTask } from './store.js';

/** What the photo worker uses of the services. */
type PhotoJobDeps = Pick<Services, 'config' | 'log' | 'now' | 'photoStorage' | 'photos' | 'productReviews' | 'reviews'>;

const HOUR_MS = 3_600_000;
const ORPHAN_AFTER_MS = HOUR_MS;

export function definePhotoJobs(
  services: Pick<
    Services,
    'config' | 'log' | 'now' | 'photoStorage' | 'photos' | 'productReviews' | 'reviews' | 'scheduler'
  >,
): void {
  services.scheduler.define(JOB.photos, () => drainPhotoTasks(services), HOUR_MS);
  services.scheduler.define('photos.limits.cleanup', () => services.photos.removeEarlierLimitWindows(), HOUR_MS);
}

export async function drainPhotoTasks(services: PhotoJobDeps): Promise<void> {
  const { photos, config } = services;
  const holder = randomUUID();
  // Encodings not ready yet (an upload whose review is still being written): left due for a later run.
  const skipped = new Set<string>();
  // A lease long enough for one photo on a busy machine; a worker that dies leaves it to be taken over.
  const leaseMs = Math.max(config.scheduler.lockLifetimeMs, 120_000);
  let tried = false;
  // One task at a time (an encoding takes the memory of one photo), a deletion whenever one is due.
  for (
    let task = await photos.next(holder, leaseMs, skipped);
    task;
    task = await photos.next(holder, leaseMs, skipped)
  ) {
    tried = true;
    try {
      const finished = task.kind === 'delete' ? await deleteFiles(services, task) : await encode(services, task);
      if (finished) await photos.done(holder, task);
      else skipped.add(task._id);
    } finally {
      await photos.release(holder);
    }
  }
  // Claims left by workers that died, a day on (as the other queues).
  if (tried) await photos.prune(new Date(services.now().getTime() - 24 * HOUR_MS));
}

async function deleteFiles(services: Pick<Services, 'photoStorage' | 'photos'>, task: PhotoTask): Promise<boolean> {
  const id = task.payload.photoId;
  for (const name of fileNames(id)) await services.photoStorage.remove(name);
  await services.photos.dropTask('encode', id);
  await services.photos.releaseHold(id);
  await services.photos.forget(id);
  return true;
}

/** False: not yet (an upload whose review is still being written). */
async function encode(services: PhotoJobDeps, task: PhotoTask): Promise<boolean> {
  const { photos, photoStorage, reviews } = services;
  const id = task.payload.photoId;
  const record = await photos.get(id);
  if (!record) return true;
  if (record.productReviewId !== undefined) return encodeProductPhoto(services, id, record.productReviewId);
  if (record.reviewId === null) {
    if (services.now().getTime() - record.created.getTime() < ORPHAN_AFTER_MS) return false;
    await photos.addTasks('delete', [id]);
    return true;
  }
  const review = await reviews.get(record.reviewId);
  const photo = review?.photos?.find((p) => p.id === id);
  // Taken off meanwhile (or its review is gone): the deletion task has the files.
  if (!review || review.deleted || photo?.state !== 'pending') {
    if (!review) await photos.addTasks('delete', [id]);
    return true;
  }
  const shown = await encodeUpload(services, id, { review: review.id });
  // The operator's list first: a crash before the review's write leaves an entry the operator finds pending, and the
  // encoding (run again) writes the review.
  if (shown.state === 'held') await photos.hold(id, review.id, review.shopId);
  const written = await reviews.update(
    review.id,
    (before) => ({
      photos: (before.photos ?? []).map((p) => (p.id === id && p.state === 'pending' ? { ...p, ...shown } : p)),
    }),
    // A bulk import's photo (imports/photo-import.ts) is part of the import: no review event, as for the import.
    { quiet: review.import_id !== undefined },
  );
  await photoStorage.remove(`${id}.upload`);
  // The review was deleted or the photo taken off while encoding: nothing may keep the files.
  if (written?.photos?.find((p) => p.id === id)?.state !== shown.state) await photos.addTasks('delete', [id]);
  return true;
}

/**
 * A photo of an imported product review (imports/photo-import.ts): re-encoded as any other, then shown on that review
 * (`imported_product_reviews`). With PHOTO_REVIEW=operator it is `held` and on the operator's list, as any photo
 * (admin.ts; docs/decisions/imports-photos-json.md).
 */
async function encodeProductPhoto(
  services: Pick<Services, 'config' | 'log' | 'photoStorage' | 'photos' | 'productReviews'>,
  id: string,
  owner: string,
): Promise<boolean> {
  const { photos, photoStorage, productReviews } = services;
  const review = await productReviews.get(owner);
  const photo = review?.photos?.find((p) => p.id === id);
  if (!review || review.status === 'removed' || !photo) {
    // Its review was removed or erased meanwhile (which queued the deletion already), or is gone.
    await photos.addTasks('delete', [id]);
    return true;
  }
  if (photo.state !== 'pending') return true;
  const shown = await encodeUpload(services, id, { productReview: owner });
  // The operator's list first, as for a shop review's photo (encode).
  if (shown.state === 'held') await photos.holdProductPhoto(id, owner, review.shopId);
  const written = await productReviews.setPhoto(owner, id, shown);
  await photoStorage.remove(`${id}.upload`);
  const now = written?.photos?.find((p) => p.id === id);
  if (shown.state === 'removed' || !written || written.status === 'removed' || now?.state !== shown.state) {
    await photos.addTasks('delete', [id]);
  }
  return true;
}

/**
 * The upload re-encoded and stored as the large photo and its thumbnail: the photo's new state and sizes (`held`
 * under PHOTO_REVIEW=operator). Unreadable after all (damaged past its header): `removed`, its files going with the
 * deletion task the caller queues.
 */
async function encodeUpload(
  services: Pick<Services, 'config' | 'log' | 'photoStorage'>,
  id: string,
  owner: object,
): Promise<Partial<ReviewPhoto>> {
  const { photoStorage } = services;
  // A failing read is the storage's, not the photo's: it throws, and the task is tried again.
  const input = await photoStorage.readAll(`${id}.upload`);
  try {
    if (!input) throw new Error('upload missing');
    const encoded = await encodePhoto(input);
    await photoStorage.write(`${id}.webp`, encoded.large);
    await photoStorage.write(`${id}-320.webp`, encoded.thumb);
    const { width, height, thumbWidth, thumbHeight } = encoded;
    const state = services.config.photos.review === 'operator' ? 'held' : 'shown';
    return { state, width, height, thumbWidth, thumbHeight };
  } catch (err) {
    services.log.warn({ err, photo: id, ...owner }, 'photo could not be re-encoded; removed');
    return { state: 'removed', alt: '' };
  }
}
