// "Helpful" votes (issue 20): one small document per vote, keyed by the review and a keyed hash of the voter's
// address (`<review id>:<hmac>`), so a second vote from the same address is a duplicate key, on MongoDB and on
// FerretDB alike; and the counts, one document per shop (`_id` the shop id) mapping review ids to their count,
// so a shop's counts are one read by `_id`. The votes are the truth; the counts follow them with `$inc` (which
// FerretDB does not apply atomically: under concurrent votes on one shop a count may fall short by a vote).
import type { Collection, Db } from '../db/index.js';
import { isDuplicateKey } from '../db/index.js';

interface Vote {
  _id: string;
  created: Date;
}

interface ShopCounts {
  _id: number;
  /** Review id (as a string key) → votes. */
  c: Record<string, number>;
}

export class HelpfulStore {
  private readonly votes: Collection<Vote>;
  private readonly counts: Collection<ShopCounts>;

  constructor(
    db: Db,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.votes = db.collection<Vote>('helpful_votes');
    this.counts = db.collection<ShopCounts>('helpful_counts');
  }

  /** Records the vote; false when this voter voted for the review before (it is not counted again). */
  async vote(shopId: number, reviewId: number, voter: string): Promise<boolean> {
    try {
      await this.votes.insertOne({ _id: `${reviewId}:${voter}`, created: this.now() });
    } catch (err) {
      if (isDuplicateKey(err)) return false;
      throw err;
    }
    try {
      await this.counts.updateOne({ _id: shopId }, { $inc: { [`c.${reviewId}`]: 1 } }, { upsert: true });
    } catch (err) {
      // The shop's first two votes both upserted: the second one's count goes to the document the first made.
      if (!isDuplicateKey(err)) throw err;
      await this.counts.updateOne({ _id: shopId }, { $inc: { [`c.${reviewId}`]: 1 } });
    }
    return true;
  }

  /** The shop's counts by review id (one read by `_id`). */
  async countsOf(shopId: number): Promise<Map<number, number>> {
    const found = await this.counts.findOne({ _id: shopId });
    return new Map(Object.entries(found?.c ?? {}).map(([id, n]) => [Number(id), n]));
  }
}
