// Review invitations: queued by Add invitation, sent later by the scheduler (send.ts). The invitation itself is
// never changed by sending: what is still to be sent and how it ended live beside it (see queue.ts).
//
// "Same e-mail and order means the same invitation" is enforced by a unique index on `dedupe`, not by a read
// before the write: clients retry concurrently, and FerretDB has no transactions. The field is always stored
// (on SQLite a missing field does not collide), with a random value when there is no order number.
import { ObjectId, type WithId } from 'mongodb';
import type { Db, Collection } from '../db/index.js';
import { GroupInsert } from '../db/group-insert.js';
import { newLinkSecret } from '../links.js';
import { bumpShopCounters, inBatches, isDuplicateKey } from '../db/index.js';
import { CountedSteps } from '../db/counted-steps.js';
import { addDays } from '../time.js';
import type { InvitationInput } from './input.js';
import type { Invitation, ListedInvitation, ListedRecord, Sendable } from './model.js';
import { sameAddress } from '../email.js';
import { InvitationQueue } from './queue.js';
import { ReminderQueue } from './reminder-queue.js';
import { dedupeKey } from './rules.js';

// The model is model.ts's (types only); re-exported for the modules that import it from here.
export type { Invitation, ListedRecord } from './model.js';

/** What erasure needs to know of an invitation: its id (for its sending records), order, and the name it used. */
type ErasedInvitation = Pick<Invitation, 'shopId' | 'order' | 'customer_name'> & { _id: ObjectId };
const ERASED_FIELDS = { _id: 1, shopId: 1, order: 1, customer_name: 1 } as const;

type AddResult = { added: true; invitation: Invitation } | { added: false; reason: 'duplicate' };

/**
 * One of the places `max_invitations_per_email` allows an address, numbered from 1. Taking a place is an insert
 * under a unique `_id`, so of concurrent calls for the last place exactly one gets it: a count read before the
 * write could not promise that (FerretDB has no transactions).
 */
interface InvitationPlace {
  _id: string;
  shopId: number;
  email: string;
  created: Date;
}

const LISTED_FIELDS = {
  _id: 1,
  shopId: 1,
  email: 1,
  order: 1,
  dedupe: 1,
  language: 1,
  customer_name: 1,
  client: 1,
  platform_version: 1,
  plugin_version: 1,
  created: 1,
  scheduled: 1,
} as const;

/**
 * Called after each invitation added and each erasure in a shop (with the ids of the invitations found for it; others
 * queued meanwhile went too), once per step of the shop's counter.
 */
type Listener = (shopId: number, change: { added: ListedRecord } | { erased: ObjectId[] }) => void;

/**
 * One small document per shop, counting its invitations added and erased (`v`) and its erasures alone (`e`): a cheap
 * cross-process "has anything changed?".
 */
interface ShopCounter {
  _id: number;
  v: number;
  e?: number;
}

/** How often this process writes the counter steps of invitations added (other processes' lists lag by that much). */
const COUNTER_WRITE_MS = 250;

const MAIL_FIELDS = { shopId: 1, email: 1, language: 1, customer_name: 1, token: 1, unsubscribeToken: 1 } as const;

export class InvitationStore {
  private readonly collection: Collection<Invitation>;
  private readonly places: Collection<InvitationPlace>;
  private readonly counters: Collection<ShopCounter>;
  /** Steps of `v` for invitations added: written at most every COUNTER_WRITE_MS (a burst makes a few writes). */
  private readonly added: CountedSteps<ShopCounter>;
  private readonly listeners: Listener[] = [];
  /** What is still to be sent, and how sending ended. */
  readonly queue: InvitationQueue;
  /** The one reminder of each invitation queued since reminders exist. */
  readonly reminders: ReminderQueue;

  constructor(
    db: Db,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.collection = db.collection<Invitation>('invitations');
    this.queue = new InvitationQueue(db, now);
    this.reminders = new ReminderQueue(db, now);
    this.inserts = new GroupInsert(this.collection);
    this.places = db.collection<InvitationPlace>('invitation_places');
    this.counters = db.collection<ShopCounter>('invitation_versions');
    this.added = new CountedSteps(this.counters, 'v', COUNTER_WRITE_MS);
  }

  /** Called after each invitation added and each erasure in a shop (the dashboard's list keeps itself current). */
  onChange(listener: Listener): void {
    this.listeners.push(listener);
  }

  /** The shop's counters, in any process: `all` moves by one with each invitation added and each erasure, `removals` with each erasure. */
  async changeCounters(shopId: number): Promise<{ all: number; removals: number }> {
    const found = await this.counters.findOne({ _id: shopId });
    return { all: (found?.v ?? 0) + this.added.pendingOf(shopId), removals: found?.e ?? 0 };
  }

  /** Writes the counter steps not written yet (at shutdown; tests). */
  flushCounters(): Promise<void> {
    return this.added.flush();
  }

  private async erased(shopId: number, ids: ObjectId[]): Promise<void> {
    await bumpShopCounters(this.counters, shopId, { v: 1, e: 1 });
    for (const listener of this.listeners) listener(shopId, { erased: ids });
  }

  /** Invitations are inserted in groups: shops send them in bursts (a day's orders, a back-fill). */
  private readonly inserts: GroupInsert<Invitation>;

  async ensureIndexes(): Promise<void> {
    await this.collection.createIndex({ shopId: 1, dedupe: 1 }, { unique: true, name: 'shop_dedupe' });
    await this.collection.createIndex({ shopId: 1, created: -1 }, { name: 'shop_created' });
    await this.collection.createIndex({ shopId: 1, email: 1 }, { name: 'shop_email' });
    await this.collection.createIndex({ token: 1 }, { name: 'token' });
    await this.collection.createIndex({ unsubscribeToken: 1 }, { name: 'unsubscribe_token' });
    await this.queue.ensureIndexes();
    await this.reminders.ensureIndexes();
  }

  /**
   * Queues an invitation; `notBefore` (from an Ask-me-later consent) can push the scheduled time later, and
   * `reminderDays` (the shop's setting; 0 or absent: none) schedules its one reminder that many days after it.
   * A repeat of the same address and order is reported, not stored.
   */
  async add(
    shopId: number,
    input: InvitationInput,
    options: { notBefore?: Date; reminderDays?: number } = {},
  ): Promise<AddResult> {
    const { notBefore, reminderDays = 0 } = options;
    const created = this.now();
    const byDelay = addDays(created, input.delay);
    const scheduled = notBefore && notBefore > byDelay ? notBefore : byDelay;
    const invitation: Invitation = {
      shopId,
      email: input.email,
      order: input.order,
      dedupe: dedupeKey(input.email, input.order),
      language: input.language,
      delay: input.delay,
      customer_name: input.customerName,
      products: input.products,
      client: input.client,
      platform_version: input.platformVersion,
      plugin_version: input.pluginVersion,
      created,
      scheduled,
      token: newLinkSecret(),
      used: null,
      unsubscribeToken: newLinkSecret(),
      incentivised: input.incentivised ?? false,
    };
    // The work is queued before the invitation exists, so a crash between the two writes cannot lose it; a queue
    // entry whose invitation never came (a repeat, or that crash) is dropped by the sender.
    const _id = new ObjectId();
    const remind = reminderDays > 0;
    await Promise.all([
      this.queue.enqueue(_id, scheduled),
      remind ? this.reminders.schedule(_id, addDays(scheduled, reminderDays)) : null,
    ]);
    if ((await this.inserts.insert({ ...invitation, _id })) === 'duplicate') {
      await Promise.all([this.queue.takeBack(_id), remind ? this.reminders.takeBack(_id) : null]);
      return { added: false, reason: 'duplicate' };
    }
    this.added.step(shopId);
    for (const listener of this.listeners) listener(shopId, { added: { ...invitation, _id } });
    return { added: true, invitation };
  }

  /** The invitation whose review link carries `token` (with its `_id`, the key of its sending records). */
  async byLinkToken(token: string): Promise<WithId<Invitation> | null> {
    return this.collection.findOne({ token });
  }

  /** Marks the review link used; false when it was used already (a double submit must not write two reviews). */
  async useLink(token: string, at: Date): Promise<boolean> {
    const claim = await this.collection.updateOne({ token, used: null }, { $set: { used: at } });
    return claim.modifiedCount === 1;
  }

  /**
   * Of these orders of the shop, the address and order of each invitation (start-up migration of review origins
   * only: a scan on FerretDB).
   */
  async addressesForOrders(shopId: number, orders: readonly string[]): Promise<{ email: string; order: string }[]> {
    if (!orders.length) return [];
    return this.collection
      .find({ shopId, order: { $in: [...orders] } }, { projection: { _id: 0, email: 1, order: 1 } })
      .toArray();
  }

  /** An invitation by its `_id` (one look-up by `_id`). */
  async get(id: ObjectId): Promise<WithId<Invitation> | null> {
    return this.collection.findOne({ _id: id });
  }

  /**
   * The operator's search: the shop's invitations to an address and/or for an order, newest first, at most `limit`.
   * A scan on FerretDB (an operator's occasional look-up).
   */
  async search(shopId: number, q: { email?: string; order?: string }, limit: number): Promise<WithId<Invitation>[]> {
    const filter = {
      shopId,
      ...(q.email === undefined ? {} : { email: sameAddress(q.email) }),
      ...(q.order === undefined ? {} : { order: q.order }),
    };
    return this.collection.find(filter).sort({ created: -1, _id: -1 }).limit(limit).toArray();
  }

  /** The invitation behind an unsubscribe link. */
  async byUnsubscribeToken(token: string): Promise<WithId<Invitation> | null> {
    return this.collection.findOne({ unsubscribeToken: token });
  }

  /** What the e-mails of these invitations need, by id in hex (one read for a batch). */
  async forSending(ids: readonly ObjectId[]): Promise<Map<string, Sendable>> {
    const found = await this.collection
      .find({ _id: { $in: [...ids] } }, { batchSize: Math.max(ids.length, 1), projection: MAIL_FIELDS })
      .toArray();
    return new Map(found.map(({ _id, ...invitation }) => [_id.toHexString(), invitation as Sendable]));
  }

  async exists(shopId: number, email: string, order: string): Promise<boolean> {
    if (!order) return false;
    return (await this.collection.countDocuments({ shopId, dedupe: dedupeKey(email, order) }, { limit: 1 })) > 0;
  }

  async countForEmail(shopId: number, email: string): Promise<number> {
    return this.collection.countDocuments({ shopId, email });
  }

  /**
   * Takes one of the `max` places the address has in this shop; null when every place is taken. Places start
   * after the invitations the address already has (some may have been queued without a limit), and an erased
   * address loses its places with its invitations. Returns the place, to give back if the invitation is not stored.
   */
  async takePlace(shopId: number, email: string, max: number): Promise<string | null> {
    for (let place = (await this.countForEmail(shopId, email)) + 1; place <= max; place++) {
      const _id = `${shopId}\n${email}\n${place}`;
      try {
        await this.places.insertOne({ _id, shopId, email, created: this.now() });
        return _id;
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
      }
    }
    return null;
  }

  async givePlaceBack(place: string): Promise<void> {
    await this.places.deleteOne({ _id: place });
  }

  /** A page of the shop's invitations, newest first, and how many there are in all. */
  async list(
    shopId: number,
    offset: number,
    limit: number,
  ): Promise<{ invitations: ListedInvitation[]; total: number }> {
    const [page, total] = await Promise.all([
      this.collection.find({ shopId }).sort({ created: -1, _id: -1 }).skip(offset).limit(limit).toArray(),
      this.collection.countDocuments({ shopId }),
    ]);
    const outcomes = await this.queue.outcomesOf(page.map((i) => i._id));
    const invitations = page.map(({ _id, ...invitation }) => {
      const outcome = outcomes.get(_id.toHexString());
      return { ...invitation, sent: outcome?.status === 'sent' ? outcome.at : null };
    });
    return { invitations, total };
  }

  /** These shops' invitations as listed, in no order, in arrays of `batchSize` (one scan on FerretDB for all). */
  allOfShops(shopIds: readonly number[], batchSize: number): AsyncGenerator<ListedRecord[]> {
    const filter = { shopId: { $in: [...shopIds] } };
    return inBatches(this.collection.find(filter, { projection: LISTED_FIELDS }).batchSize(batchSize), batchSize);
  }

  /** The shop's invitations added since `since` (invitations do not change once added; a scan on FerretDB). */
  createdSince(shopId: number, since: Date, batchSize: number): AsyncGenerator<ListedRecord[]> {
    return inBatches(
      this.collection.find({ shopId, created: { $gte: since } }, { projection: LISTED_FIELDS }).batchSize(batchSize),
      batchSize,
    );
  }

  /** Erasure: the invitations to the address (matched case-insensitively), in one shop or all. */
  async findByAddress(email: string, shopId?: number): Promise<ErasedInvitation[]> {
    return this.collection
      .find({ ...(shopId === undefined ? {} : { shopId }), email: sameAddress(email) }, { projection: ERASED_FIELDS })
      .toArray();
  }

  /**
   * Erasure: removes these invitations of the address (from findByAddress) with their numbered places and all
   * that was kept about sending them. Erasing in every shop also removes sending records that quote the address
   * but belong to no invitation any more (left by an erasure made before they were removed with it); erasing in
   * one shop leaves other shops' records alone.
   */
  async erase(
    email: string,
    shopId: number | undefined,
    found: ErasedInvitation[],
  ): Promise<{ invitations: number; mailRecords: number }> {
    const filter = { ...(shopId === undefined ? {} : { shopId }), email: sameAddress(email) };
    await this.places.deleteMany(filter);
    // By address rather than by id: one queued in the meantime goes too (its queue entry is then dropped unsent).
    const result = await this.collection.deleteMany(filter);
    const ids = found.map((i) => i._id);
    const quoting = shopId === undefined ? email : undefined;
    const mailRecords = (await this.queue.forget(ids, quoting)) + (await this.reminders.forget(ids, quoting));
    if (result.deletedCount > 0) {
      const shops = shopId === undefined ? new Set(found.map((i) => i.shopId)) : [shopId];
      for (const shop of shops)
        await this.erased(
          shop,
          found.filter((i) => i.shopId === shop).map((i) => i._id),
        );
    }
    return { invitations: result.deletedCount, mailRecords };
  }
}
