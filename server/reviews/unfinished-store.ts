// Review writes in progress (`review_writes`): one small document per write, inserted before the review is written
// and deleted once what follows the write (its event, its e-mails) is recorded. One that stays behind marks an
// interrupted write: ReviewStore.finishInterruptedWrites() redoes the followers for the shop's reviews written
// since. Inserts and deletes by `_id` only, so it costs nothing to keep on FerretDB, and reading it (what a repair
// run does every minute) reads a handful of documents, however many reviews there are.
import { ObjectId } from 'mongodb';
import type { Collection, Db } from '../db/index.js';

interface UnfinishedWrite {
  _id: ObjectId;
  shopId: number;
  at: Date;
}

export class UnfinishedWrites {
  private readonly collection: Collection<UnfinishedWrite>;

  constructor(
    db: Db,
    private readonly now: () => Date,
  ) {
    this.collection = db.collection<UnfinishedWrite>('review_writes');
  }

  async ensureIndexes(): Promise<void> {
    await this.collection.createIndex({ at: 1 }, { name: 'at' });
  }

  /** Announces a write of one of the shop's reviews; returns what `end` takes. */
  async begin(shopId: number): Promise<ObjectId> {
    const _id = new ObjectId();
    await this.collection.insertOne({ _id, shopId, at: this.now() });
    return _id;
  }

  async end(id: ObjectId): Promise<void> {
    await this.collection.deleteOne({ _id: id });
  }

  /** Writes announced before `at` and not ended: interrupted (a write and its followers take milliseconds). */
  async olderThan(at: Date): Promise<UnfinishedWrite[]> {
    return this.collection
      .find({ at: { $lt: at } })
      .sort({ at: 1 })
      .limit(100)
      .toArray();
  }
}
