// Review tokens of the pop-up: a "write now" choice returns one, and it lets its holder submit one review for that
// order. Only a SHA-256 hash is stored, so a copy of the database cannot submit reviews. A token carries what the
// consent said about the order, so the review needs no second look-up, and works once, within TOKEN_LIFETIME_MS.
import { sha256Hex } from '../hash.js';
import { LINK_SECRET_FORMAT, newLinkSecret } from '../links.js';
import type { Db, Collection } from '../db/index.js';
import { sameAddress } from '../email.js';
import type { ShopOrder } from '../consents/rules.js';
import type { PopupToken } from './model.js';

/** The shopper writes on the thank-you page; a day leaves room for a tab left open overnight. */
const TOKEN_LIFETIME_MS = 24 * 60 * 60 * 1000;

// The token's record is a type of the reviews' model, so the pop-up's service reads it without this store.
export type { PopupToken } from './model.js';

const hashSecret = sha256Hex;

type NewPopupToken = Omit<PopupToken, 'hash' | 'expires' | 'used'>;

export class PopupTokenStore {
  private readonly collection: Collection<PopupToken>;

  constructor(
    db: Db,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.collection = db.collection<PopupToken>('popup_tokens');
  }

  async ensureIndexes(): Promise<void> {
    await this.collection.createIndex({ hash: 1 }, { unique: true, name: 'hash_1' });
    await this.collection.createIndex({ shopId: 1, order: 1 }, { name: 'shop_order' });
  }

  /** Issues a token; the plain token is returned once and never stored. */
  async issue(input: NewPopupToken): Promise<string> {
    const token = newLinkSecret();
    const now = this.now();
    await this.collection.insertOne({
      ...input,
      hash: hashSecret(token),
      expires: new Date(now.getTime() + TOKEN_LIFETIME_MS),
      used: null,
    });
    return token;
  }

  /** The token's record while it can still be used for this shop; null otherwise. */
  async peek(shopId: number, token: string): Promise<PopupToken | null> {
    if (!LINK_SECRET_FORMAT.test(token)) return null;
    const found = await this.collection.findOne({ hash: hashSecret(token), shopId }, { projection: { _id: 0 } });
    if (!found || found.used !== null || found.expires <= this.now()) return null;
    return found;
  }

  /** Marks the token used; false when another request used it first. */
  async claim(token: PopupToken): Promise<boolean> {
    const result = await this.collection.updateOne({ hash: token.hash, used: null }, { $set: { used: this.now() } });
    return result.modifiedCount === 1;
  }

  /** A signed choice replaced an unsigned one: tokens issued for the unsigned one stop working. */
  async revokeUnsigned(shopId: number, order: string): Promise<void> {
    await this.collection.updateMany({ shopId, order, signed: false, used: null }, { $set: { used: this.now() } });
  }

  /** Erasure: the tokens issued for the address (matched case-insensitively), in one shop or all. */
  async findByAddress(email: string, shopId?: number): Promise<PopupToken[]> {
    const filter = { ...(shopId === undefined ? {} : { shopId }), email: sameAddress(email) };
    return this.collection.find(filter, { projection: { _id: 0 } }).toArray();
  }

  /**
   * Erasure: removes the tokens issued for the address and those of the customer's orders (a token issued for order
   * data without an address still holds their first name). A scan on FerretDB: erasures are rare.
   */
  async erase(email: string, shopId: number | undefined, orders: readonly ShopOrder[]): Promise<number> {
    const byAddress = { ...(shopId === undefined ? {} : { shopId }), email: sameAddress(email) };
    const byOrder = orders.map((o) => ({ shopId: o.shopId, order: o.order }));
    const result = await this.collection.deleteMany({ $or: [byAddress, ...byOrder] });
    return result.deletedCount;
  }

  /** Housekeeping: removes tokens that can no longer be used. */
  async deleteExpired(): Promise<number> {
    const result = await this.collection.deleteMany({ expires: { $lte: this.now() } });
    return result.deletedCount;
  }
}
