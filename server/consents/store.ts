// Privacy First consent receipts: the review pop-up records one when the customer chooses "write now" or "ask me
// later"; order_permissions.json and Add invitation read them (how far each is trusted: rules.ts).
//
// An order has at most one signed receipt (the shop's signature proves the order data; the latest signed choice
// replaces an earlier one) and any number of unsigned ones, one per address: anyone who knows an order number can
// post to the pop-up, so an unsigned receipt must not shut out, overwrite or speak for the real customer. The first
// unsigned choice of an address stands; the one recorded without an address is replaced by the next.
//
// Every look-up is a read by `_id`, because FerretDB scans the collection for any other filter:
// - `consents` `<shopId>:<order>`: the signed receipt; `u:<address key>:<shopId>:<order>`: an unsigned one
//   (rules.ts addressKey, `none` without an address);
// - `consent_orders` `<shopId>:<order>`: the keys of the order's unsigned receipts, for questions asked with an
//   order number only (order_permissions.json);
// - `consent_counts` `<shopId>`: how many unsigned receipts without a review the shop has. Past the cap the oldest
//   are dropped, so that what anyone can post does not fill the database; signed receipts never count.
import type { AnyBulkWriteOperation } from 'mongodb';
import type { Db, Collection } from '../db/index.js';
import { isDuplicateKey, onlyDuplicateKeys, updateBatches } from '../db/index.js';
import { normalizeEmail, sameAddress } from '../email.js';
import { addressKey, NO_ADDRESS, type InvitationReceipts, type ShopOrder } from './rules.js';
import type { Consent, NewConsent } from './model.js';

// The receipt's types are model.ts's; NewConsent re-exported for the modules that import it from here.
export type { NewConsent } from './model.js';

// ShopOrder is rules.ts's (no store to import for it); re-exported for the modules that import it from here.
export type { ShopOrder } from './rules.js';

/** An unsigned receipt also carries its address key and the review written under it (null: none yet). */
type StoredConsent = Consent & { _id: string; key?: string; reviewId?: number | null };

interface OrderIndex {
  _id: string;
  shopId: number;
  order: string;
  /** Address keys of the order's unsigned receipts. */
  keys: string[];
}

interface ShopCount {
  _id: number;
  /** Unsigned receipts without a review (approximate between trims: FerretDB's $inc can merge concurrent ones). */
  open: number;
}

interface ConsentLimits {
  /** Unsigned receipts without a review kept per shop; beyond it the oldest are dropped. */
  unsignedPerShop: number;
}

/** The receipts an invitation of one order to one address may have to respect (rules.ts). */
type ReceiptsForInvitation = InvitationReceipts<Consent> & {
  /** How many unsigned receipts the order has, under any address. */
  unsigned: number;
};

const consentId = (shopId: number, order: string): string => `${shopId}:${order.trim()}`;
const unsignedId = (shopId: number, order: string, key: string): string => `u:${key}:${shopId}:${order.trim()}`;
const RECEIPT_FIELDS = { _id: 0, key: 0, reviewId: 0 } as const;
const MIGRATION_BATCH = 5_000;

/** Positions (in the batch) of the documents a failed insertMany did not write. */
function writeErrorIndexes(err: unknown): number[] {
  const raw = (err as { writeErrors?: unknown }).writeErrors;
  const errors = (Array.isArray(raw) ? raw : raw ? [raw] : []) as { index?: number }[];
  return errors.map((e) => e.index ?? -1);
}

export class ConsentStore {
  private readonly collection: Collection<StoredConsent>;
  private readonly orders: Collection<OrderIndex>;
  private readonly counts: Collection<ShopCount>;
  private readonly cap: number;
  /** Receipts past the cap before a trim runs: a trim reads the shop's open receipts, so not on every choice. */
  private readonly slack: number;

  constructor(
    db: Db,
    private readonly now: () => Date = () => new Date(),
    limits: ConsentLimits = { unsignedPerShop: 10_000 },
  ) {
    this.collection = db.collection<StoredConsent>('consents');
    this.orders = db.collection<OrderIndex>('consent_orders');
    this.counts = db.collection<ShopCount>('consent_counts');
    this.cap = limits.unsignedPerShop;
    this.slack = Math.max(1, Math.floor(limits.unsignedPerShop / 10));
  }

  async ensureIndexes(): Promise<void> {
    // One receipt per order was once enforced by a unique index; an order now has one per address.
    const indexes = await this.collection.indexes().catch(() => []);
    if (indexes.some((i) => i.name === 'shop_order')) await this.collection.dropIndex('shop_order');
    await this.collection.createIndex({ email: 1 }, { name: 'email_1' });
    await this.collection.createIndex(
      { shopId: 1, signed: 1, reviewId: 1, created: 1 },
      { name: 'shop_open_unsigned' },
    );
  }

  /** Records the customer's choice and returns the receipt in force afterwards (a signed one may have stayed). */
  async record(input: NewConsent): Promise<Consent> {
    return (await this.recordChoice(input)).receipt;
  }

  /**
   * Records the customer's choice. `recorded` is false when it was not stored: the order has a signed receipt (it
   * supersedes unsigned ones), or this address already chose. `dropped` counts old unsigned receipts removed by the
   * shop's cap.
   */
  async recordChoice(input: NewConsent): Promise<{ receipt: Consent; recorded: boolean; dropped: number }> {
    const consent: Consent = {
      ...input,
      order: input.order.trim(),
      email: input.email ? normalizeEmail(input.email) : '',
      created: this.now(),
    };
    const { shopId, order } = consent;
    if (consent.signed) {
      await this.upsert(consentId(shopId, order), consent);
      return { receipt: consent, recorded: true, dropped: 0 };
    }
    const signed = await this.get(shopId, order);
    if (signed) return { receipt: signed, recorded: false, dropped: 0 };

    const key = addressKey(consent.email);
    const _id = unsignedId(shopId, order, key);
    const stored: StoredConsent = { ...consent, _id, key, reviewId: null };
    if (key === NO_ADDRESS) {
      await this.upsert(_id, stored);
    } else {
      try {
        await this.collection.insertOne(stored);
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
        const kept = await this.byId(_id);
        if (!kept) throw err;
        return { receipt: kept, recorded: false, dropped: 0 };
      }
    }
    // The key after the receipt: a crash in between leaves a receipt that nothing reads (the safe side).
    await this.indexKeys(shopId, order, { $addToSet: { keys: key } });
    const dropped = await this.countOpen(shopId, 1);
    return { receipt: consent, recorded: true, dropped };
  }

  /** The order's signed receipt, or null. */
  async get(shopId: number, order: string): Promise<Consent | null> {
    const found = await this.collection.findOne({ _id: consentId(shopId, order) });
    if (!found) return null;
    if (!found.signed) {
      // An unsigned receipt that a process of an older version wrote after the start-up migration had run.
      await this.rekey([found]);
      return null;
    }
    const { _id, key, reviewId, ...receipt } = found;
    return receipt;
  }

  /** The unsigned receipt recorded for the order under this address ('' for the one without an address). */
  async unsigned(shopId: number, order: string, email: string): Promise<Consent | null> {
    return this.byId(unsignedId(shopId, order, addressKey(email)));
  }

  /** What order_permissions.json weighs (rules.ts hasConsent): a signed receipt, and how many unsigned ones. */
  async forOrder(shopId: number, order: string): Promise<{ signed: boolean; unsigned: number }> {
    const [signed, index] = await Promise.all([
      this.get(shopId, order),
      this.orders.findOne({ _id: consentId(shopId, order) }),
    ]);
    return { signed: signed !== null, unsigned: index?.keys.length ?? 0 };
  }

  /**
   * The receipts of the order that may concern an invitation to this address, by `_id` only: the signed receipt
   * and the order's index at once, then the address's and the address-less receipt where the index lists them.
   */
  async forInvitation(shopId: number, order: string, email: string): Promise<ReceiptsForInvitation> {
    const [signed, index] = await Promise.all([
      this.get(shopId, order),
      this.orders.findOne({ _id: consentId(shopId, order) }),
    ]);
    const keys = index?.keys ?? [];
    const read = (key: string) =>
      keys.includes(key) ? this.byId(unsignedId(shopId, order, key)) : Promise.resolve(null);
    const own = addressKey(email);
    const [ownReceipt, anonymous] = await Promise.all([own === NO_ADDRESS ? null : read(own), read(NO_ADDRESS)]);
    return { signed, own: ownReceipt, anonymous, unsigned: keys.length };
  }

  /** A review was written under an unsigned receipt: the receipt no longer counts towards the shop's cap. */
  async attachReview(receipt: Pick<Consent, 'shopId' | 'order' | 'email'>, reviewId: number): Promise<string> {
    const _id = unsignedId(receipt.shopId, receipt.order, addressKey(receipt.email));
    const result = await this.collection.updateOne({ _id }, { $set: { reviewId } });
    if (result.modifiedCount === 1) await this.countOpen(receipt.shopId, -1);
    return _id;
  }

  /** The reviews written under these unsigned receipts are gone (expired unconfirmed): they count again. */
  async detachReviews(receipts: readonly { shopId: number; receipt: string }[]): Promise<number> {
    if (!receipts.length) return 0;
    for (const batch of updateBatches(receipts)) {
      await this.collection.bulkWrite(
        batch.map((r) => ({ updateOne: { filter: { _id: r.receipt }, update: { $set: { reviewId: null } } } })),
        { ordered: false },
      );
    }
    let dropped = 0;
    const perShop = new Map<number, number>();
    for (const r of receipts) perShop.set(r.shopId, (perShop.get(r.shopId) ?? 0) + 1);
    for (const [shopId, n] of perShop) dropped += await this.countOpen(shopId, n);
    return dropped;
  }

  /** Erasure: the receipts for the address (matched case-insensitively), in one shop or all. */
  async findByAddress(email: string, shopId?: number): Promise<Consent[]> {
    const filter = { ...(shopId === undefined ? {} : { shopId }), email: sameAddress(email) };
    return this.collection.find<Consent>(filter, { projection: RECEIPT_FIELDS }).toArray();
  }

  /**
   * Erasure: removes the receipts for the address and those of the customer's orders (known from their reviews and
   * invitations): a receipt recorded without an address still holds their first name.
   */
  async erase(email: string, shopId: number | undefined, orders: readonly ShopOrder[]): Promise<number> {
    const byAddress = await this.collection
      .find(
        { ...(shopId === undefined ? {} : { shopId }), email: sameAddress(email) },
        { projection: { _id: 1, shopId: 1, order: 1, key: 1 } },
      )
      .toArray();
    const unsigned = [
      ...byAddress.filter((r) => r.key !== undefined).map((r) => ({ shopId: r.shopId, order: r.order, key: r.key! })),
      ...orders.map((o) => ({ ...o, key: NO_ADDRESS })),
    ];
    const ids = [
      ...byAddress.map((r) => r._id),
      ...orders.flatMap((o) => [consentId(o.shopId, o.order), unsignedId(o.shopId, o.order, NO_ADDRESS)]),
    ];
    await this.forgetKeys(unsigned);
    if (!ids.length) return 0;
    return (await this.collection.deleteMany({ _id: { $in: [...new Set(ids)] } })).deletedCount;
  }

  /**
   * Start-up migration: unsigned receipts an older version stored under the order's own key move to their
   * address's key, with their orders' index and their shops' counts. Idempotent: a repeat finds nothing to move, and
   * a run cut short is finished by the next. Each batch is one search and a few bulk writes.
   */
  async migrateUnsigned(): Promise<number> {
    let moved = 0;
    for (;;) {
      const legacy = await this.collection
        .find({ signed: false, key: { $exists: false } })
        .limit(MIGRATION_BATCH)
        .toArray();
      if (!legacy.length) return moved;
      await this.rekey(legacy);
      moved += legacy.length;
      if (legacy.length < MIGRATION_BATCH) return moved;
    }
  }

  /** Moves legacy unsigned receipts (stored under `<shopId>:<order>`) to their address's key. */
  private async rekey(legacy: readonly StoredConsent[]): Promise<void> {
    const rekeyed = legacy.map(({ _id, ...receipt }): StoredConsent => {
      const key = addressKey(receipt.email);
      return { ...receipt, _id: unsignedId(receipt.shopId, receipt.order, key), key, reviewId: null };
    });
    try {
      await this.collection.insertMany(rekeyed, { ordered: false });
    } catch (err) {
      if (!onlyDuplicateKeys(err)) throw err;
    }
    // A legacy order had one receipt, so its index does not exist yet: inserts, not one upsert per order (each a
    // search on FerretDB). Where one exists (a run cut short, or a receipt recorded since), the key is added to it.
    const indexes = rekeyed.map(
      (r): OrderIndex => ({ _id: consentId(r.shopId, r.order), shopId: r.shopId, order: r.order, keys: [r.key!] }),
    );
    let existing: OrderIndex[] = [];
    try {
      await this.orders.insertMany(indexes, { ordered: false });
    } catch (err) {
      if (!onlyDuplicateKeys(err)) throw err;
      const failed = new Set(writeErrorIndexes(err));
      existing = indexes.filter((_, i) => failed.has(i));
    }
    await this.bulkIndexKeys(
      existing.map((x) => ({ shopId: x.shopId, order: x.order, update: { $addToSet: { keys: x.keys[0]! } } })),
    );
    const perShop = new Map<number, number>();
    for (const r of rekeyed) perShop.set(r.shopId, (perShop.get(r.shopId) ?? 0) + 1);
    for (const [shopId, n] of perShop) await this.countOpen(shopId, n);
    await this.collection.deleteMany({ _id: { $in: legacy.map((l) => l._id) } });
  }

  private async byId(_id: string): Promise<Consent | null> {
    return this.collection.findOne<Consent>({ _id }, { projection: RECEIPT_FIELDS });
  }

  /** Replaces (or creates) the receipt under `_id`; concurrent first writes of one key both upsert, one collides. */
  private async upsert(_id: string, receipt: Consent | StoredConsent): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        await this.collection.replaceOne({ _id }, receipt, { upsert: true });
        return;
      } catch (err) {
        if (!isDuplicateKey(err) || attempt >= 2) throw err;
      }
    }
  }

  private async indexKeys(
    shopId: number,
    order: string,
    update: { $addToSet: { keys: string } } | { $pull: { keys: string } },
  ) {
    await this.bulkIndexKeys([{ shopId, order, update }]);
  }

  private async bulkIndexKeys(
    changes: { shopId: number; order: string; update: { $addToSet: { keys: string } } | { $pull: { keys: string } } }[],
  ) {
    if (!changes.length) return;
    const ops: AnyBulkWriteOperation<OrderIndex>[] = changes.map(({ shopId, order, update }) => ({
      updateOne: {
        filter: { _id: consentId(shopId, order) },
        update: '$addToSet' in update ? { ...update, $setOnInsert: { shopId, order: order.trim() } } : update,
        upsert: '$addToSet' in update,
      },
    }));
    for (const batch of updateBatches(ops)) {
      for (let attempt = 0; ; attempt++) {
        try {
          await this.orders.bulkWrite(batch, { ordered: false });
          break;
        } catch (err) {
          // Two first keys of one order both upsert its index: the repeat adds to the one that won.
          if (!onlyDuplicateKeys(err) || attempt >= 2) throw err;
        }
      }
    }
  }

  /** Removes unsigned receipts' keys from their orders' index (before the receipts: a crash leaves them unread). */
  private async forgetKeys(receipts: readonly { shopId: number; order: string; key: string }[]): Promise<void> {
    await this.bulkIndexKeys(
      receipts.map((r) => ({ shopId: r.shopId, order: r.order, update: { $pull: { keys: r.key } } })),
    );
  }

  /** Moves the shop's count of unsigned receipts without a review; past the cap (and its slack) trims. */
  private async countOpen(shopId: number, by: number): Promise<number> {
    let counted: ShopCount | null = null;
    for (let attempt = 0; ; attempt++) {
      try {
        counted = await this.counts.findOneAndUpdate(
          { _id: shopId },
          { $inc: { open: by } },
          { upsert: true, returnDocument: 'after' },
        );
        break;
      } catch (err) {
        if (!isDuplicateKey(err) || attempt >= 2) throw err;
      }
    }
    if (by <= 0 || (counted?.open ?? 0) <= this.cap + this.slack) return 0;
    return this.trim(shopId);
  }

  /**
   * Drops the shop's oldest unsigned receipts without a review beyond the cap, and sets the count to what is left.
   * It reads all of them (a scan on FerretDB), which is why it runs only once `slack` receipts have piled up.
   */
  private async trim(shopId: number): Promise<number> {
    const open = await this.collection
      .find({ shopId, signed: false, reviewId: null }, { projection: { _id: 1, order: 1, key: 1 } })
      .sort({ created: -1, _id: -1 })
      .toArray();
    const dropped = open.slice(this.cap);
    if (dropped.length) {
      await this.forgetKeys(
        dropped.filter((d) => d.key !== undefined).map((d) => ({ shopId, order: d.order, key: d.key! })),
      );
      await this.collection.deleteMany({ _id: { $in: dropped.map((d) => d._id) } });
    }
    await this.counts.updateOne({ _id: shopId }, { $set: { open: open.length - dropped.length } });
    return dropped.length;
  }
}
