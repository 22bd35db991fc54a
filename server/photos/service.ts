// Photos with their review, the rules spanning the photo records, their files and the reviews:
// - an upload is checked from its first bytes (detect.ts) and streamed to storage as it arrives, after its record
//   and its encoding task (so no file is ever unknown to the worker); the review is written at once with its photos
//   `pending`, and the worker (jobs.ts) re-encodes them one at a time;
// - photos follow their review: a write that takes a photo off (deletion, erasure, a redaction of one photo) queues
//   the deletion of its files (PhotoFollower, a follower of every review write), as does the removal of reviews
//   nobody confirmed. No periodic scan looks for orphans.
import { Readable } from 'node:stream';
import { JOB } from '../jobs/names.js';
import type { IncomingFile } from '../http/upload.js';
import type { Review, ReviewPhoto, WriteFollower } from '../reviews/model.js';
import type { Services } from '../services.js';
import { detectPhoto, PHOTO_LIMITS, type Detection } from './detect.js';
import { newPhotoId, type PhotoStore } from './store.js';

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
