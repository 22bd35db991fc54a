// Addresses that asked a shop for no more review invitations (the unsubscribe link). Only a hash of shop and address
// is kept: enough to recognise the address when a shop sends it again, without keeping it, so erasing a customer
// does not have to (and cannot) undo their wish.
import { sha256Hex } from '../hash.js';
import type { Db, Collection } from '../db/index.js';
import { isDuplicateKey } from '../db/index.js';

interface Suppression {
  /** suppressionKey(shopId, email). */
  _id: string;
  shopId: number;
  created: Date;
}

/** Addresses compare case-insensitively here: `Jane@…` unsubscribing also stops invitations to `jane@…`. */
function suppressionKey(shopId: number, email: string): string {
  return sha256Hex(`${shopId}\n${email.trim().toLowerCase()}`);
}

export class SuppressionStore {
  private readonly collection: Collection<Suppression>;

  constructor(
    db: Db,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.collection = db.collection<Suppression>('suppressions');
  }

  async add(shopId: number, email: string): Promise<void> {
    try {
      await this.collection.updateOne(
        { _id: suppressionKey(shopId, email) },
        { $setOnInsert: { shopId, created: this.now() } },
        { upsert: true },
      );
    } catch (err) {
      // Two clicks at once: the other one recorded it.
      if (!isDuplicateKey(err)) throw err;
    }
  }

  /**
   * Whether an address unsubscribed from a shop, for a batch of these shops: one query for the whole batch, and the
   * callers need not know how the pairs are keyed.
   */
  async unsubscribedIn(shopIds: number[]): Promise<(shopId: number, email: string) => boolean> {
    const keys = await this.keysOf(shopIds);
    return (shopId, email) => keys.has(suppressionKey(shopId, email));
  }

  /** The keys (see suppressionKey) of the suppressed addresses of these shops: one query for a whole batch. */
  async keysOf(shopIds: number[]): Promise<Set<string>> {
    const found = await this.collection.find({ shopId: { $in: shopIds } }, { projection: { _id: 1 } }).toArray();
    return new Set(found.map((s) => s._id));
  }
}
