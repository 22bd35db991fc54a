// Reviews waiting for their writer's e-mail confirmation (unsigned pop-up reviews and serviceAddReview reviews),
// one small document each. Unconfirmed reviews expire CONFIRMATION_DAYS (rules.ts) after they were written; the expiry sweeps
// this collection, which holds only what still waits, instead of searching the reviews (FerretDB scans a
// collection for any filter but an exact `_id`).
import type { Db, Collection } from '../db/index.js';
import { isDuplicateKey, onlyDuplicateKeys } from '../db/index.js';

export interface PendingConfirmation {
  /** The review's id. */
  _id: number;
  shopId: number;
  /** The unsigned consent receipt the review was written under (its `_id`); null for a form review. */
  receipt: string | null;
  /** The consent the review was written under, for its edit e-mail's due time; null for a form review. */
  consentCreated: Date | null;
  inviteDelay: number;
  expires: Date;
}

export class ConfirmationQueue {
  private readonly collection: Collection<PendingConfirmation>;

  constructor(db: Db) {
    this.collection = db.collection<PendingConfirmation>('review_confirmations');
  }

  async ensureIndexes(): Promise<void> {
    await this.collection.createIndex({ expires: 1 }, { name: 'expires_1' });
  }

  async add(entry: PendingConfirmation): Promise<void> {
    try {
      await this.collection.insertOne(entry);
    } catch (err) {
      // A repeat (the start-up backfill after a crash) finds it there already.
      if (!isDuplicateKey(err)) throw err;
    }
  }

  async addMany(entries: readonly PendingConfirmation[]): Promise<void> {
    if (!entries.length) return;
    try {
      await this.collection.insertMany([...entries], { ordered: false });
    } catch (err) {
      // A repeat (the start-up backfill after a crash) finds some there already.
      if (!onlyDuplicateKeys(err)) throw err;
    }
  }

  async get(reviewId: number): Promise<PendingConfirmation | null> {
    return this.collection.findOne({ _id: reviewId });
  }

  /**
   * The review no longer waits. Called before the review is released: a crash in between leaves a review that
   * waits without expiring, never an expiry that removes a published review.
   */
  async remove(reviewId: number): Promise<void> {
    await this.collection.deleteOne({ _id: reviewId });
  }

  /** Entries whose time ran out, oldest first. */
  async due(now: Date, limit: number): Promise<PendingConfirmation[]> {
    return this.collection
      .find({ expires: { $lte: now } })
      .sort({ expires: 1 })
      .limit(limit)
      .toArray();
  }

  async removeMany(reviewIds: readonly number[]): Promise<void> {
    if (reviewIds.length) await this.collection.deleteMany({ _id: { $in: [...reviewIds] } });
  }
}
