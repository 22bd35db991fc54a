// Photos with their review, the rules spanning the photo records, their files and the reviews:
// - an upload is checked from its first bytes (detect.ts) and streamed to storage as it arrives, after its record
//   and its encoding task (so no file is ever unknown to the worker); the review is written at once with its photos
//   `pending`, and the worker (jobs.ts) re-encodes them one at a time;
// - a photo is public while its review is published and shows it; one held for the operator's look (PHOTO_REVIEW=
//   operator) is shown or removed by the operator's decision;
// - photos follow their review: a write that takes a photo off (deletion, erasure, a redaction of one photo) queues
//   the deletion of its files (PhotoFollower, a follower of every review write), as does the removal of reviews
//   nobody confirmed. No periodic scan looks for orphans.
import { Readable } from 'node:stream';
import { JOB } from '../jobs/names.js';
import type { IncomingFile } from '../http/upload.js';
import type { Review, ReviewPhoto, WriteFollower } from '../reviews/model.js';
import type { Services } from '../services.js';
import { detectPhoto, PHOTO_LIMITS, type Detection } from './detect.js';
import { newPhotoId, type PhotoHold, type PhotoStore } from './store.js';
import { HttpError } from '../http/errors.js';
import { recordOperatorAction } from '../audit/service.js';
import { removedPhotos } from '../reviews/rules.js';

export type PhotoRefusal = 'unreadable' | 'too_large' | 'too_many_pixels' | 'limited';

export type ReceivedPhoto =
  | { ok: true; id: string; field: string }
  | { ok: false; field: string; filename: string; reason: PhotoRefusal };

/** A new photo's id (random): for photos that come from elsewhere than a form (imports/photo-import.ts). */
export { newPhotoId } from './store.js';

export const fileNames = (id: string) => [`${id}.upload`, `${id}.webp`, `${id}-320.webp`];

/** Reads the stream until its head tells what it is; the bytes read are returned, the stream left paused. */
function takeHead(stream: Readable): Promise<{ head: Buffer; detection: Detection; ended: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const cleanup = () => {
      stream.off('data', onData);
      stream.off('end', onEnd);
      stream.off('error', onError);
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      const head = Buffer.concat(chunks);
      const detection = detectPhoto(head, false);
      if (!detection) return;
      stream.pause();
      cleanup();
      resolve({ head, detection, ended: false });
    };
    const onEnd = () => {
      cleanup();
      const head = Buffer.concat(chunks);
      resolve({ head, detection: detectPhoto(head, true)!, ended: true });
    };
    const onError = (err: Error) => {
      cleanup();
      reject(err);
    };
    stream.on('data', onData);
    stream.on('end', onEnd);
    stream.on('error', onError);
  });
}

/**
 * One file of a review form: refused (with the reason) or stored as an upload waiting for its review. `address` is
 * the client's (per-address daily limit).
 */
export async function receivePhoto(
  services: Pick<Services, 'photoStorage' | 'photos'>,
  file: IncomingFile,
  shopId: number,
  address: string,
): Promise<ReceivedPhoto> {
  const refuse = (reason: PhotoRefusal): ReceivedPhoto => ({
    ok: false,
    field: file.field,
    filename: file.filename,
    reason,
  });
  const { head, detection, ended } = await takeHead(file.stream);
  if (!detection.ok) return refuse(detection.reason);
  if (!(await services.photos.takePlace(address, shopId))) return refuse('limited');
  const id = newPhotoId();
  await services.photos.recordUpload(id, shopId);
  let size = 0;
  const counted = async function* () {
    size += head.length;
    yield head;
    if (ended) return;
    for await (const chunk of file.stream) {
      size += (chunk as Buffer).length;
      yield chunk as Buffer;
    }
  };
  try {
    await services.photoStorage.write(`${id}.upload`, Readable.from(counted()));
  } catch (err) {
    await discardUploads(services, [id]);
    throw err;
  }
  if (file.truncated() || size > PHOTO_LIMITS.bytes) {
    await discardUploads(services, [id]);
    return refuse('too_large');
  }
  await services.photos.setSize(id, size);
  return { ok: true, id, field: file.field };
}

/** Uploads of a form that was not saved (or failed): their files, records and tasks go at once. */
export async function discardUploads(
  services: Pick<Services, 'photoStorage' | 'photos'>,
  ids: readonly string[],
): Promise<void> {
  for (const id of ids) {
    await services.photoStorage.remove(`${id}.upload`);
    await services.photos.dropTask('encode', id);
    await services.photos.forget(id);
  }
}

/** The review's photos as first stored: waiting for the worker. */
export const pendingPhotos = (uploads: readonly { id: string; alt: string }[]): ReviewPhoto[] =>
  uploads.map(({ id, alt }) => ({ id, state: 'pending', alt, width: 0, height: 0, thumbWidth: 0, thumbHeight: 0 }));

/** The review is written: its uploads are its own, and the worker encodes them. */
export async function attachUploads(services: Pick<Services, 'photos' | 'scheduler'>, review: Review): Promise<void> {
  const ids = (review.photos ?? []).map((p) => p.id);
  if (!ids.length) return;
  await services.photos.attach(ids, review.id);
  services.scheduler.trigger(JOB.photos);
}

/** Photos taken off by this write; with no `before` (a repair), every photo the review has taken off. */
function photosTakenOff(before: Review | undefined, after: Review): string[] {
  const wasOff = new Set((before?.photos ?? []).filter((p) => p.state === 'removed').map((p) => p.id));
  const present = new Set((after.photos ?? []).map((p) => p.id));
  const dropped = (before?.photos ?? []).filter((p) => !present.has(p.id)).map((p) => p.id);
  const off = (after.photos ?? []).filter((p) => p.state === 'removed' && !wasOff.has(p.id)).map((p) => p.id);
  return [...off, ...dropped];
}

/** Follows every review write: photos it took off have their files deleted by the worker. */
export class PhotoFollower implements WriteFollower {
  constructor(
    private readonly photos: PhotoStore,
    private readonly wake: () => void,
  ) {}

  async follow(before: Review | undefined, after: Review): Promise<void> {
    const off = photosTakenOff(before, after);
    if (!off.length) return;
    await this.photos.addTasks('delete', off);
    this.wake();
  }

  /** Reviews removed outright (never published): every photo of theirs goes. */
  async removing(reviews: readonly Review[]): Promise<void> {
    const ids = reviews.flatMap((r) => (r.photos ?? []).map((p) => p.id));
    if (!ids.length) return;
    await this.photos.addTasks('delete', ids);
    this.wake();
  }
}

/** What finding a photo's review takes: the photo records, the shop reviews, and the imported product reviews. */
export type PhotoOwnerDeps = Pick<Services, 'photos' | 'reviews' | 'importedPhotoOwners'>;

/**
 * Whether the photo is public: its review (a shop review, or an imported product review) is published and shows it.
 * Not before confirmation, nor while held for the operator, nor after removal.
 */
export async function photoIsPublic(deps: PhotoOwnerDeps, id: string): Promise<boolean> {
  const record = await deps.photos.get(id);
  const review = record?.reviewId == null ? null : await deps.reviews.get(record.reviewId);
  if (review?.published && review.photos?.some((p) => p.id === id && p.state === 'shown')) return true;
  return (
    record?.productReviewId !== undefined && (await deps.importedPhotoOwners.photoShown(record.productReviewId, id))
  );
}

/** Enough of a review's words for the operator to place the photo; the whole text is on the review. */
const EXCERPT_CHARS = 200;

function excerpt(text: string | null | undefined): string {
  const flat = (text ?? '').replace(/\s+/g, ' ').trim();
  return flat.length <= EXCERPT_CHARS ? flat : `${flat.slice(0, EXCERPT_CHARS - 1).trimEnd()}…`;
}

/** A held photo as the operator's list shows it: with its review's product and an excerpt of its text. */
export interface HeldPhoto {
  hold: PhotoHold;
  product: { id: string; name: string } | null;
  excerpt: string;
}

/** What the list shows of the photo's review (null fields when the review is gone meanwhile). */
async function contextOf(deps: PhotoOwnerDeps, hold: PhotoHold): Promise<Omit<HeldPhoto, 'hold'>> {
  if (hold.productReviewId !== undefined) {
    const review = await deps.importedPhotoOwners.describe(hold.productReviewId);
    if (!review) return { product: null, excerpt: '' };
    return { product: review.product, excerpt: excerpt(review.text || review.title) };
  }
  const review = hold.reviewId === null ? null : await deps.reviews.get(hold.reviewId);
  const first = review?.products?.[0];
  return {
    product: first ? { id: first.external_id, name: first.name } : null,
    excerpt: excerpt(review?.comment || review?.title),
  };
}

/** The photos held for the operator's look, oldest first, each with what the list shows of its review. */
export async function heldPhotos(deps: PhotoOwnerDeps, limit: number): Promise<HeldPhoto[]> {
  const held = await deps.photos.held(limit);
  // One read per photo: the list is the operator's to-do (at most 100), not a hot path.
  const rows: HeldPhoto[] = [];
  for (const hold of held) rows.push({ hold, ...(await contextOf(deps, hold)) });
  return rows;
}

export type HeldPhotoAction = 'show' | 'remove';

export type PhotoDecisionDeps = PhotoOwnerDeps & Pick<Services, 'scheduler' | 'audit'>;

/**
 * The operator's decision on a held photo: shown with its review (public while the review is published), or removed
 * (its files deleted). The hold is released either way, and the decision is in the shop's trail. 404s: no such held
 * photo, or its review was deleted or removed meanwhile.
 */
export async function decideHeldPhoto(deps: PhotoDecisionDeps, id: string, action: HeldPhotoAction): Promise<void> {
  const hold = await deps.photos.getHold(id);
  if (!hold) throw new HttpError(404, 'No such held photo.');
  if (hold.productReviewId !== undefined) await decideProductPhoto(deps, hold, hold.productReviewId, action);
  else await decideReviewPhoto(deps, hold, action);
}

/** A shop review's photo: its state on the review (a removal's files go with the review's write followers). */
async function decideReviewPhoto(deps: PhotoDecisionDeps, hold: PhotoHold, action: HeldPhotoAction): Promise<void> {
  const id = hold._id;
  const written =
    hold.reviewId === null
      ? null
      : await deps.reviews.update(hold.reviewId, (before) => ({
          photos: (before.photos ?? []).map((p) =>
            p.id !== id || p.state !== 'held'
              ? p
              : action === 'show'
                ? { ...p, state: 'shown' as const }
                : removedPhotos([p])[0]!,
          ),
        }));
  await deps.photos.releaseHold(id);
  if (!written) throw new HttpError(404, 'The review was deleted meanwhile.');
  await recordDecision(deps, hold, action, `review:${hold.reviewId}`);
}

/**
 * An imported product review's photo (no write followers there): shown on the product surfaces while the review is
 * published, or removed and its files deleted by the photo worker's queued task.
 */
async function decideProductPhoto(
  deps: PhotoDecisionDeps,
  hold: PhotoHold,
  owner: string,
  action: HeldPhotoAction,
): Promise<void> {
  const id = hold._id;
  const written = await deps.importedPhotoOwners.decideHeldPhoto(owner, id, action === 'show' ? 'shown' : 'removed');
  if (written && action === 'remove') {
    await deps.photos.addTasks('delete', [id]);
    deps.scheduler.trigger(JOB.photos);
  }
  await deps.photos.releaseHold(id);
  if (!written) throw new HttpError(404, 'The review was removed meanwhile.');
  await recordDecision(deps, hold, action, `product_review:${owner}`);
}

function recordDecision(
  deps: PhotoDecisionDeps,
  hold: PhotoHold,
  action: HeldPhotoAction,
  target: string,
): Promise<void> {
  return recordOperatorAction(deps, {
    shopId: hold.shopId,
    action: action === 'show' ? 'photo.shown' : 'photo.removed',
    target,
    details: { photo: hold._id },
  });
}
