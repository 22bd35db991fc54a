// Privacy First consent receipts: the review pop-up records one per (shop, order) when the customer chooses
// "write now" or "ask me later"; order_permissions.json and Add invitation read them.
//
// The latest choice replaces an earlier one (the customer's last answer is what they want), except that an
// unsigned receipt never replaces a signed one: without the shop's signature anyone who knows an order number can
// post to the pop-up, and must not be able to overwrite what the real customer chose.
import type { Db, Collection } from '../db/index.js';
import { isDuplicateKey } from '../db/index.js';
import type { Language } from '../languages.js';
import { normalizeEmail, sameAddress } from '../invitations/email.js';

export type ConsentChoice = 'write_now' | 'ask_later';

export interface Consent {
  shopId: number;
  order: string;
  /** Normalised; '' when the order data script carried none. */
  email: string;
  firstName: string;
  /** Days after `created` before an Ask-me-later invitation may be sent. */
  inviteDelay: number;
  choice: ConsentChoice;
  created: Date;
  language: Language;
  /** The order data script carried a valid signature. */
  signed: boolean;
  /** Which version of the consent text the customer saw. */
  textVersion: string;
}

export type NewConsent = Omit<Consent, 'created'>;

/** One order of one shop. */
export interface ShopOrder {
  shopId: number;
  order: string;
}

/** Stored under `<shopId>:<order>`: Add invitation looks a receipt up on every call, and a look-up by `_id` stays
 * cheap on FerretDB, which scans the collection for a filter on other fields. */
type StoredConsent = Consent & { _id: string };

const consentId = (shopId: number, order: string): string => `${shopId}:${order.trim()}`;

export class ConsentStore {
  readonly collection: Collection<StoredConsent>;

  constructor(
    db: Db,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.collection = db.collection<StoredConsent>('consents');
  }

  async ensureIndexes(): Promise<void> {
    await this.collection.createIndex({ shopId: 1, order: 1 }, { unique: true, name: 'shop_order' });
    await this.collection.createIndex({ email: 1 }, { name: 'email_1' });
  }

  /** Records the customer's choice and returns the receipt in force afterwards (a signed one may have stayed). */
  async record(input: NewConsent): Promise<Consent> {
    const consent: Consent = {
      ...input,
      order: input.order.trim(),
      email: input.email ? normalizeEmail(input.email) : '',
      created: this.now(),
    };
    const replaceable = consent.signed ? {} : { signed: false };
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        await this.collection.replaceOne({ _id: consentId(consent.shopId, consent.order), ...replaceable }, consent, {
          upsert: true,
        });
        return consent;
      } catch (err) {
        // Either a signed receipt exists that this unsigned one may not replace, or a concurrent first write won.
        if (!isDuplicateKey(err)) throw err;
        if (!consent.signed) {
          const kept = await this.get(consent.shopId, consent.order);
          if (kept) return kept;
        }
      }
    }
    throw new Error(`could not record consent for order ${consent.order} of shop ${consent.shopId}`);
  }

  async get(shopId: number, order: string): Promise<Consent | null> {
    return this.collection.findOne<Consent>({ _id: consentId(shopId, order) }, { projection: { _id: 0 } });
  }

  /** Erasure: the receipts for the address (matched case-insensitively), in one shop or all. */
  async findByAddress(email: string, shopId?: number): Promise<Consent[]> {
    const filter = { ...(shopId === undefined ? {} : { shopId }), email: sameAddress(email) };
    return this.collection.find<Consent>(filter, { projection: { _id: 0 } }).toArray();
  }

  /**
   * Erasure: removes the receipts for the address and those of the customer's orders (known from their reviews and
   * invitations): a receipt recorded without an address still holds their first name.
   */
  async erase(email: string, shopId: number | undefined, orders: readonly ShopOrder[]): Promise<number> {
    const byAddress = await this.collection.deleteMany({ ...(shopId === undefined ? {} : { shopId }), email: sameAddress(email) });
    const ids = orders.map((o) => consentId(o.shopId, o.order));
    const byOrder = ids.length ? await this.collection.deleteMany({ _id: { $in: ids } }) : { deletedCount: 0 };
    return byAddress.deletedCount + byOrder.deletedCount;
  }
}
