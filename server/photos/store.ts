// The photos' own records and their small to-do collection, every read by `_id` but the worker's read of the
// to-do list (which holds only work not done yet: FerretDB scans every other filter):
// - `photos`: one document per uploaded photo, keyed by its random id: the review it belongs to (null between the
//   upload and the review's write), the shop, the uploaded size. The serving route finds the review through it.
// - two work queues (server/queue/work-queue.ts), keyed by the photo id: `photo_encodes` (re-encode the upload in
//   the worker) and `photo_deletions` (remove every file of the photo and its record), each with its claims
//   (`<name>_claims`). Two kinds, two collections: the worker empties the deletions before each encoding (a deleted
//   photo's encoding is then skipped) without sorting one mixed list. Items are deleted once done.
// - per-day limits of uploads per client address and per shop (db/window-places.ts), keyed by digests.
import { randomBytes } from 'node:crypto';
import type { Collection, Db } from '../db/index.js';
import { onlyDuplicateKeys } from '../db/index.js';
import { fixedWindows, WindowPlaces } from '../db/window-places.js';
import { sha256Hex } from '../hash.js';
import { type TakenItem, WorkQueue } from '../queue/work-queue.js';

export interface PhotoRecord {
  _id: string;
  /** null from the upload until the review is written; such a record that stays so was left by a failed request. */
  reviewId: number | null;
  /**
   * Instead of `reviewId`: the imported product review it belongs to (`imported_product_reviews`, a string key;
   * imports/photo-import.ts). Its photo is served while that review is published, encoded by the same worker.
   */
  productReviewId?: string;
  shopId: number;
  /** Bytes of the upload. */
  size: number;
  created: Date;
}

export type PhotoTaskKind = 'encode' | 'delete';

/** A photo held for the operator's look (PHOTO_REVIEW=operator): the operator's to-do list, small by nature. */
export interface PhotoHold {
  _id: string;
  /** null for a photo of an imported product review, named by `productReviewId` instead (as on PhotoRecord). */
  reviewId: number | null;
  productReviewId?: string;
  shopId: number;
  created: Date;
}

/** What a photo queue item holds: the key is the photo id too, this keeps it readable in the item. */
export interface PhotoWork {
  photoId: string;
}

export type PhotoTask = TakenItem<PhotoWork> & { kind: PhotoTaskKind };

/** The queues' collections (their claims: `<name>_claims`). */
export const PHOTO_QUEUES: Readonly<Record<PhotoTaskKind, string>> = {
  encode: 'photo_encodes',
  delete: 'photo_deletions',
};

/** The limits of the issue: photos a day per client address and per shop. */
const PHOTOS_PER_ADDRESS_PER_DAY = 30;
const PHOTOS_PER_SHOP_PER_DAY = 300;

const DAY_MS = 86_400_000;

/** A new photo id: 128 random bits, base64url (22 characters): unguessable, and a safe file name. */
export const newPhotoId = (): string => randomBytes(16).toString('base64url');

export class PhotoStore {
  private readonly records: Collection<PhotoRecord>;
  private readonly queues: Readonly<Record<PhotoTaskKind, WorkQueue<PhotoWork>>>;
  private readonly holds: Collection<PhotoHold>;
  private readonly perAddress: WindowPlaces;
  private readonly perShop: WindowPlaces;

  constructor(
    db: Db,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.records = db.collection<PhotoRecord>('photos');
    this.queues = {
      encode: new WorkQueue<PhotoWork>(db, PHOTO_QUEUES.encode, now),
      delete: new WorkQueue<PhotoWork>(db, PHOTO_QUEUES.delete, now),
    };
    this.holds = db.collection<PhotoHold>('photo_holds');
    const days = fixedWindows(DAY_MS);
    this.perAddress = new WindowPlaces(db, 'photo_limits_address', PHOTOS_PER_ADDRESS_PER_DAY, days, now);
    this.perShop = new WindowPlaces(db, 'photo_limits_shop', PHOTOS_PER_SHOP_PER_DAY, days, now);
  }

  async ensureIndexes(): Promise<void> {
    await this.queues.encode.ensureIndexes();
    await this.queues.delete.ensureIndexes();
  }

  /**
   * Takes one photo's place in today's limits of the address and of the shop; false when either is used up (the
   * address's place is then spent: it counts what was sent, as the limit is there against floods).
   */
  async takePlace(address: string, shopId: number): Promise<boolean> {
    if ((await this.perAddress.take(sha256Hex(`photo:${address}`))) > 0) return false;
    return (await this.perShop.take(String(shopId))) === 0;
  }

  async removeEarlierLimitWindows(): Promise<void> {
    await this.perAddress.removeEarlierWindows();
    await this.perShop.removeEarlierWindows();
  }

  /**
   * Records an upload about to be stored, with its encoding task: both before the file, so that whatever happens
   * next, the worker finds the file (and removes it if no review claims it).
   */
  async recordUpload(photoId: string, shopId: number): Promise<void> {
    const created = this.now();
    await this.records.insertOne({ _id: photoId, reviewId: null, shopId, size: 0, created });
    await this.addTasks('encode', [photoId]);
  }

  async setSize(photoId: string, size: number): Promise<void> {
    await this.records.updateOne({ _id: photoId }, { $set: { size } });
  }

  /** The review was written: its photos are its own from now on. */
  async attach(photoIds: readonly string[], reviewId: number): Promise<void> {
    for (const _id of photoIds) await this.records.updateOne({ _id }, { $set: { reviewId } });
  }

  /** The photo belongs to an imported product review (not to a review of the shop): see PhotoRecord. */
  async attachToProductReview(photoId: string, productReviewId: string): Promise<void> {
    await this.records.updateOne({ _id: photoId }, { $set: { productReviewId } });
  }

  async get(photoId: string): Promise<PhotoRecord | null> {
    return this.records.findOne({ _id: photoId });
  }

  async forget(photoId: string): Promise<void> {
    await this.records.deleteOne({ _id: photoId });
  }

  /** Queues work on these photos, due at `due`; a photo queued already for that work is left as it is. */
  async addTasks(kind: PhotoTaskKind, photoIds: readonly string[], due?: Date): Promise<number> {
    // A repeat (after a crash, or a repair of the review's write) finds the item queued: a no-op. Enqueued together,
    // they go in one insert.
    const added = await Promise.all(photoIds.map((photoId) => this.queues[kind].enqueue(photoId, { photoId }, due)));
    return added.filter(Boolean).length;
  }

  /**
   * The next task due, claimed for `holder` for `leaseMs`: a deletion while any is due (a deleted photo's encoding is
   * then skipped), else an encoding; none of the keys in `skip` (work found not ready in this run).
   */
  async next(holder: string, leaseMs: number, skip: ReadonlySet<string>): Promise<PhotoTask | undefined> {
    for (const kind of ['delete', 'encode'] as const) {
      const [item] = await this.queues[kind].take(holder, 1, leaseMs, skip);
      if (item) return { ...item, kind };
    }
    return undefined;
  }

  /** Done: the task goes, then its claim. */
  done(holder: string, task: Pick<PhotoTask, '_id' | 'kind'>): Promise<void> {
    return this.queues[task.kind].finish(holder, task._id);
  }

  /** Not done and not failed (not ready yet): the task stays due; the holder lets go of it. */
  release(holder: string): Promise<void> {
    return Promise.all([this.queues.encode.release(holder), this.queues.delete.release(holder)]).then(() => undefined);
  }

  async hasTask(kind: PhotoTaskKind, photoId: string): Promise<boolean> {
    return (await this.queues[kind].get(photoId)) !== undefined;
  }

  /** Claims and take-over markers that ran out before `before` (no TTL indexes on FerretDB). */
  async prune(before: Date): Promise<void> {
    await this.queues.encode.prune(before);
    await this.queues.delete.prune(before);
  }

  async hold(photoId: string, reviewId: number, shopId: number): Promise<void> {
    try {
      await this.holds.insertOne({ _id: photoId, reviewId, shopId, created: this.now() });
    } catch (err) {
      if (!onlyDuplicateKeys(err)) throw err;
    }
  }

  /** As hold, for a photo of an imported product review (PhotoRecord `productReviewId`). */
  async holdProductPhoto(photoId: string, productReviewId: string, shopId: number): Promise<void> {
    try {
      await this.holds.insertOne({ _id: photoId, reviewId: null, productReviewId, shopId, created: this.now() });
    } catch (err) {
      if (!onlyDuplicateKeys(err)) throw err;
    }
  }

  /** The photos held for the operator, oldest first. */
  async held(limit: number): Promise<PhotoHold[]> {
    const all = await this.holds.find({}).limit(10_000).toArray();
    return all.sort((a, b) => a.created.getTime() - b.created.getTime()).slice(0, limit);
  }

  async getHold(photoId: string): Promise<PhotoHold | null> {
    return this.holds.findOne({ _id: photoId });
  }

  async releaseHold(photoId: string): Promise<void> {
    await this.holds.deleteOne({ _id: photoId });
  }

  /** Takes the photo's task off undone, whoever holds it (its purpose went). */
  dropTask(kind: PhotoTaskKind, photoId: string): Promise<void> {
    return this.queues[kind].cancel([photoId]);
  }
}
