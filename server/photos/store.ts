// The photos' own records and their small to-do collection, every read by `_id` but the worker's read of the
// to-do list (which holds only work not done yet: FerretDB scans every other filter):
// - `photos`: one document per uploaded photo, keyed by its random id: the review it belongs to (null between the
//   upload and the review's write), the shop, the uploaded size. The serving route finds the review through it.
// - `photo_tasks`: `encode:<id>` (re-encode the upload in the worker) and `delete:<id>` (remove every file of the
//   photo and its record). Each is deleted once done; a claim (`photo_claims`, db/claims.ts) keeps two workers off
//   the same task.
// - per-day limits of uploads per client address and per shop (db/window-places.ts), keyed by digests.
import { randomBytes } from 'node:crypto';
import { Claims } from '../db/claims.js';
import type { Collection, Db } from '../db/index.js';
import { onlyDuplicateKeys } from '../db/index.js';
import { fixedWindows, WindowPlaces } from '../db/window-places.js';
import { sha256Hex } from '../hash.js';

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

export interface PhotoTask {
  _id: string;
  kind: PhotoTaskKind;
  photoId: string;
  created: Date;
}

/** The limits of the issue: photos a day per client address and per shop. */
const PHOTOS_PER_ADDRESS_PER_DAY = 30;
const PHOTOS_PER_SHOP_PER_DAY = 300;

const DAY_MS = 86_400_000;

/** A new photo id: 128 random bits, base64url (22 characters): unguessable, and a safe file name. */
export const newPhotoId = (): string => randomBytes(16).toString('base64url');

const taskId = (kind: PhotoTaskKind, photoId: string) => `${kind}:${photoId}`;

export class PhotoStore {
  private readonly records: Collection<PhotoRecord>;
  private readonly tasks: Collection<PhotoTask>;
  private readonly holds: Collection<PhotoHold>;
  readonly claims: Claims;
  private readonly perAddress: WindowPlaces;
  private readonly perShop: WindowPlaces;

  constructor(
    db: Db,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.records = db.collection<PhotoRecord>('photos');
    this.tasks = db.collection<PhotoTask>('photo_tasks');
    this.holds = db.collection<PhotoHold>('photo_holds');
    this.claims = new Claims(db, 'photo_claims', now);
    const days = fixedWindows(DAY_MS);
    this.perAddress = new WindowPlaces(db, 'photo_limits_address', PHOTOS_PER_ADDRESS_PER_DAY, days, now);
    this.perShop = new WindowPlaces(db, 'photo_limits_shop', PHOTOS_PER_SHOP_PER_DAY, days, now);
  }

  async ensureIndexes(): Promise<void> {
    await this.claims.ensureIndexes();
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

  async addTasks(kind: PhotoTaskKind, photoIds: readonly string[]): Promise<void> {
    if (!photoIds.length) return;
    const created = this.now();
    try {
      await this.tasks.insertMany(
        photoIds.map((photoId) => ({ _id: taskId(kind, photoId), kind, photoId, created })),
        { ordered: false },
      );
    } catch (err) {
      // Queued already (a repeat after a crash, or a repair of the review's write).
      if (!onlyDuplicateKeys(err)) throw err;
    }
  }

  /** Work not done yet, deletions first (a deleted photo's encoding is then skipped), oldest first. */
  async due(limit: number): Promise<PhotoTask[]> {
    const all = await this.tasks
      .find({})
      .limit(limit * 4)
      .toArray();
    return all
      .sort((a, b) => (a.kind === b.kind ? a.created.getTime() - b.created.getTime() : a.kind === 'delete' ? -1 : 1))
      .slice(0, limit);
  }

  async hasTask(kind: PhotoTaskKind, photoId: string): Promise<boolean> {
    return (await this.tasks.findOne({ _id: taskId(kind, photoId) })) !== null;
  }

  async done(task: Pick<PhotoTask, '_id'>): Promise<void> {
    await this.tasks.deleteOne({ _id: task._id });
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

  async dropTask(kind: PhotoTaskKind, photoId: string): Promise<void> {
    await this.tasks.deleteOne({ _id: taskId(kind, photoId) });
  }
}
