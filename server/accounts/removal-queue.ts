// Users to look at again when they may have gone unused (rules.ts UNUSED_USER_MS): `dashboard_user_removals`, one
// entry per user, `_id` = the user's number (as a string), due 30 days after they were added to a shop or left their
// last one. Written with the user (UserStore.findOrCreate) and again at each such change, so the clean-up reads only
// the due entries of this small collection, never the users.
import type { Collection, Db } from '../db/index.js';

interface RemovalDoc {
  _id: string;
  due: Date;
}

export class UserRemovalQueue {
  private readonly entries: Collection<RemovalDoc>;

  constructor(db: Db) {
    this.entries = db.collection<RemovalDoc>('dashboard_user_removals');
  }

  async ensureIndexes(): Promise<void> {
    await this.entries.createIndex({ due: 1 }, { name: 'due' });
  }

  /** Looks at the user again at `due` (an earlier entry of theirs is replaced). */
  async schedule(userId: number, due: Date): Promise<void> {
    await this.entries.updateOne({ _id: String(userId) }, { $set: { due } }, { upsert: true });
  }

  /** Users whose entry is due at `now`, at most `limit`, the longest due first. */
  async due(now: Date, limit: number): Promise<number[]> {
    const docs = await this.entries
      .find({ due: { $lte: now } })
      .sort({ due: 1 })
      .limit(limit)
      .toArray();
    return docs.map((d) => Number(d._id));
  }

  async drop(userId: number): Promise<void> {
    await this.entries.deleteOne({ _id: String(userId) });
  }
}
