// Reviews (the spec's "ratings") and the one path through which every review write goes: imports, moderation,
// consumer forms, replies. Each write bumps the review's `version` and records a review event
// (`reviews.created` when a review is first published, `reviews.updated`, `reviews.deleted`) in the `events`
// collection, which the webhook delivery consumes.
//
// Without transactions the review and its event are two writes. The review is written first with
// `pendingEvent` set; the event's _id is `<review id>:<version>`, so writing it twice is harmless; then the field
// is cleared. recordPendingEvents() repairs what a crash between the two writes left behind.
import type { Db, Collection } from '../db/index.js';
import { insertNumbered, isDuplicateKey } from '../db/index.js';
import type { Language } from '../languages.js';
import { sameAddress } from '../invitations/email.js';

export const SUB_RATINGS = ['shippingtime', 'customerservice', 'pricequality', 'aftersale'] as const;
export type SubRatingKey = (typeof SUB_RATINGS)[number];
/** Sub-scores 1–5; 0 means "not given" and is left out of averages. */
export type SubRatings = Record<SubRatingKey, number>;

export const noSubRatings = (): SubRatings => ({ shippingtime: 0, customerservice: 0, pricequality: 0, aftersale: 0 });

export interface ReviewProduct {
  /** The `order_data.products[].id` the shop sent. */
  external_id: string;
  name: string;
  url: string;
  image_url: string;
  sku: string;
  gtin: string;
  mpn: string;
  brand: string;
  /** 1–5 once the customer rated the product; null while not rated. */
  rating: number | null;
  content: string;
}

export interface Reply {
  text: string;
  date: Date;
  /** The customer asked to be told (the reply e-mail is sent by the scheduler). */
  notify: boolean;
  /** Counts replies to this review, so each replacement has its own e-mail identity. */
  revision: number;
  /** When the notification e-mail was sent; null while pending or not wanted. */
  notified: Date | null;
}

export type ReviewSource = 'invitation' | 'popup' | 'form' | 'import';

export interface Review {
  id: number;
  shopId: number;
  name: string;
  email: string;
  /** Overall score 1–5. */
  rating: number;
  ratings: SubRatings;
  comment: string | null;
  language: Language;
  /** Two-letter country code (upper case), or ''. */
  country: string;
  order: string;
  created: Date;
  modified: Date;
  read: boolean;
  quarantine: boolean;
  is_spam: boolean;
  /** Operator's verdict that the review may be published (the feed's `valid`). */
  valid: boolean;
  deleted: boolean;
  /** Derived: visible in public displays (not deleted, quarantined or spam, and valid). */
  published: boolean;
  /** Set once the review has been published: from then on changes are `reviews.updated` events. */
  announced: boolean;
  /** Written by a customer of the order: an invitation's link, signed order data, or the shop's own Add invitation. */
  verified: boolean;
  /**
   * The writer confirmed their address by the e-mailed link. It proves the address, not the order: such a review
   * is published but not verified (docs/decisions.md). Absent on reviews stored before it existed: false.
   */
  emailConfirmed?: boolean;
  source: ReviewSource;
  products: ReviewProduct[];
  reply: Reply | null;
  /** Secret of the writer's edit link (`/edit/{token}`); null when the review has none. */
  editToken: string | null;
  /** When the edit e-mail is due (pop-up reviews: after the order's inviteDelay); null when none is to be sent. */
  editMailDue: Date | null;
  editMailSent: Date | null;
  /** Secret of the confirmation link for reviews that wait for their writer's confirmation; null when none. */
  confirmToken: string | null;
  confirmMailSent: Date | null;
  version: number;
  /** The event this version still has to record (see recordPendingEvents); null once recorded. */
  pendingEvent: ReviewTopic | null;
}

export type ReviewTopic = 'reviews.created' | 'reviews.updated' | 'reviews.deleted';

export interface ReviewEvent {
  /** `<review id>:<version>`: one event per review version, so recording it twice is harmless. */
  _id: string;
  shopId: number;
  reviewId: number;
  version: number;
  topic: ReviewTopic;
  created: Date;
  /** Set by the webhook scheduler once the event's deliveries exist. */
  dispatched: boolean;
}

export type NewReview = Pick<Review, 'name' | 'email' | 'rating' | 'language'> &
  Partial<
    Pick<
      Review,
      | 'ratings'
      | 'comment'
      | 'country'
      | 'order'
      | 'created'
      | 'quarantine'
      | 'is_spam'
      | 'valid'
      | 'verified'
      | 'emailConfirmed'
      | 'source'
      | 'products'
      | 'read'
      | 'editToken'
      | 'editMailDue'
      | 'confirmToken'
    >
  >;

/**
 * What the single write path may change. Mail bookkeeping (editMailSent, confirmMailSent, reply.notified) is not a
 * change of the review: the mailer sets it directly on the collection, without a new version or event.
 */
export type ReviewChanges = Partial<
  Pick<
    Review,
    | 'name'
    | 'email'
    | 'rating'
    | 'ratings'
    | 'comment'
    | 'country'
    | 'read'
    | 'quarantine'
    | 'is_spam'
    | 'valid'
    | 'verified'
    | 'emailConfirmed'
    | 'products'
    | 'reply'
    | 'language'
    | 'editToken'
    | 'editMailDue'
    | 'confirmToken'
    | 'order'
  >
>;

export function isPublished(r: Pick<Review, 'deleted' | 'quarantine' | 'is_spam' | 'valid'>): boolean {
  return !r.deleted && !r.quarantine && !r.is_spam && r.valid;
}

/** Which event a write causes, given the review before (undefined for a new one) and after. */
export function topicFor(before: Pick<Review, 'announced'> | undefined, after: Review): ReviewTopic | undefined {
  const wasAnnounced = before?.announced ?? false;
  if (!wasAnnounced) return after.published ? 'reviews.created' : undefined;
  return after.deleted ? 'reviews.deleted' : 'reviews.updated';
}

/** Gets the shop whose reviews changed and the review as written (webhooks build payloads from it). */
type Listener = (shopId: number, review: Review) => void;

/** A shop's review counters: `v` moves with every write, `p` only with writes that change what the public sees. */
interface ShopVersions {
  _id: number;
  v: number;
  p?: number;
}

/** Whether a write changes public displays: a published review before or after it. A quarantined one changes none. */
export const changesPublic = (before: Pick<Review, 'published'> | undefined, after: Pick<Review, 'published'>): boolean =>
  before?.published === true || after.published;

export class ReviewStore {
  readonly collection: Collection<Review>;
  readonly events: Collection<ReviewEvent>;
  /** One small document per shop, counting its review writes: a cheap cross-process "has anything changed?". */
  private readonly shopVersions: Collection<ShopVersions>;
  private readonly listeners: Listener[] = [];
  private readonly publicListeners: Listener[] = [];

  constructor(
    private readonly db: Db,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.collection = db.collection<Review>('reviews');
    this.events = db.collection<ReviewEvent>('events');
    this.shopVersions = db.collection<ShopVersions>('review_versions');
  }

  async ensureIndexes(): Promise<void> {
    await this.collection.createIndex({ id: 1 }, { unique: true, name: 'id_1' });
    await this.collection.createIndex({ shopId: 1, published: 1, created: -1 }, { name: 'shop_published_created' });
    await this.collection.createIndex({ shopId: 1, modified: -1 }, { name: 'shop_modified' });
    await this.collection.createIndex({ shopId: 1, email: 1 }, { name: 'shop_email' });
    await this.collection.createIndex({ shopId: 1, order: 1 }, { name: 'shop_order' });
    await this.collection.createIndex({ pendingEvent: 1 }, { name: 'pending_event' });
    await this.events.createIndex({ dispatched: 1, created: 1 }, { name: 'dispatched_created' });
  }

  /** Called after every write with the shop whose reviews changed (caches invalidate themselves here). */
  onChange(listener: Listener): void {
    this.listeners.push(listener);
  }

  /**
   * Called only after writes that change what the public sees (changesPublic). A review that waits in quarantine
   * changes nothing public, so posting one cannot make public caches reload.
   */
  onPublicChange(listener: Listener): void {
    this.publicListeners.push(listener);
  }

  async get(id: number): Promise<Review | null> {
    return this.collection.findOne({ id }, { projection: { _id: 0 } });
  }

  /** The live review whose edit or confirmation link carries `token`. */
  async byLinkToken(field: 'editToken' | 'confirmToken', token: string): Promise<Review | null> {
    return this.collection.findOne({ [field]: token, deleted: false }, { projection: { _id: 0 } });
  }

  /**
   * The reviews written for one order of the shop. A scan on FerretDB: Add invitation asks only for orders that
   * have a consent receipt.
   */
  async byOrder(shopId: number, order: string): Promise<Review[]> {
    return this.collection.find({ shopId, order }, { projection: { _id: 0 } }).toArray();
  }

  /** Every review that waits for its writer's confirmation (a scan: the start-up backfill of their queue only). */
  async awaitingConfirmation(): Promise<Review[]> {
    return this.collection.find({ confirmToken: { $ne: null }, quarantine: true, deleted: false }, { projection: { _id: 0 } }).toArray();
  }

  /**
   * Removes reviews that still wait for their writer's confirmation (others among `ids` are left alone). They were
   * never published, so no event is recorded, and public displays are unchanged. Returns how many were removed.
   */
  async removeUnconfirmed(ids: readonly number[]): Promise<number> {
    if (!ids.length) return 0;
    const filter = { id: { $in: [...ids] }, confirmToken: { $ne: null }, published: false };
    const gone = await this.collection.find(filter, { projection: { _id: 0 } }).toArray();
    if (!gone.length) return 0;
    const result = await this.collection.deleteMany({ ...filter, id: { $in: gone.map((r) => r.id) } });
    const oneByShop = new Map(gone.map((r) => [r.shopId, r]));
    for (const [shopId, review] of oneByShop) {
      await this.bumpShopVersion(shopId, false);
      for (const listener of this.listeners) listener(shopId, review);
    }
    return result.deletedCount;
  }

  async create(shopId: number, input: NewReview): Promise<Review> {
    const now = this.now();
    const review = await insertNumbered(this.db, this.collection, 'reviews', (id) => {
      const draft: Review = {
        id,
        shopId,
        name: input.name,
        email: input.email,
        rating: input.rating,
        ratings: input.ratings ?? noSubRatings(),
        comment: input.comment ?? null,
        language: input.language,
        country: input.country ?? '',
        order: input.order ?? '',
        created: input.created ?? now,
        modified: now,
        read: input.read ?? false,
        quarantine: input.quarantine ?? false,
        is_spam: input.is_spam ?? false,
        valid: input.valid ?? true,
        deleted: false,
        published: false,
        announced: false,
        verified: input.verified ?? false,
        emailConfirmed: input.emailConfirmed ?? false,
        source: input.source ?? 'import',
        products: input.products ?? [],
        reply: null,
        editToken: input.editToken ?? null,
        editMailDue: input.editMailDue ?? null,
        editMailSent: null,
        confirmToken: input.confirmToken ?? null,
        confirmMailSent: null,
        version: 1,
        pendingEvent: null,
      };
      draft.published = isPublished(draft);
      draft.pendingEvent = topicFor(undefined, draft) ?? null;
      draft.announced = draft.published;
      return draft;
    });
    const { _id, ...clean } = review as Review & { _id?: unknown };
    await this.afterWrite(clean, clean.pendingEvent, changesPublic(undefined, clean));
    return clean;
  }

  /**
   * Applies changes through the single write path; returns the new review, or null when there is none. Changes
   * that depend on the review (erasure rewrites its texts) are a function of it, applied to the version written.
   */
  async update(id: number, changes: ReviewChanges | ((before: Review) => ReviewChanges)): Promise<Review | null> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const before = await this.get(id);
      if (!before || before.deleted) return null;
      const change = typeof changes === 'function' ? changes(before) : changes;
      const after: Review = { ...before, ...change, modified: this.now(), version: before.version + 1 };
      after.published = isPublished(after);
      const topic = topicFor(before, after);
      after.announced = before.announced || after.published;
      after.pendingEvent = topic ?? null;
      const { id: _id, shopId: _s, created: _c, ...set } = after;
      // Optimistic concurrency: the write only lands on the version we read.
      const result = await this.collection.updateOne({ id, version: before.version }, { $set: set });
      if (result.matchedCount === 0) continue;
      await this.afterWrite(after, topic, changesPublic(before, after));
      return after;
    }
    throw new Error(`review ${id} is being changed concurrently`);
  }

  /** Erasure: the reviews written under this address (any case), in one shop or all; deleted ones are blank already. */
  async findByAddress(email: string, shopId?: number): Promise<Review[]> {
    const scope = shopId === undefined ? {} : { shopId };
    return this.collection.find({ ...scope, deleted: false, email: sameAddress(email) }, { projection: { _id: 0 } }).toArray();
  }

  /**
   * Soft delete: gone from ratings and summary, kept in the product feed as deleted. Only the ids, `deleted`,
   * `modified` and products remain; name, e-mail, text and reply are blanked.
   */
  async softDelete(id: number): Promise<Review | null> {
    const before = await this.get(id);
    if (!before || before.deleted) return null;
    const after: Review = {
      ...before,
      deleted: true,
      published: false,
      name: '',
      email: '',
      comment: null,
      reply: null,
      // The products stay (the feed reports the deletion per product), the customer's words about them do not.
      products: before.products.map((p) => ({ ...p, content: '' })),
      modified: this.now(),
      version: before.version + 1,
    };
    const topic = topicFor(before, after);
    after.pendingEvent = topic ?? null;
    const { id: _id, shopId: _s, created: _c, ...set } = after;
    const result = await this.collection.updateOne({ id, version: before.version }, { $set: set });
    if (result.matchedCount === 0) return this.softDelete(id);
    await this.afterWrite(after, topic, changesPublic(before, after));
    return after;
  }

  /** Re-records events whose review write landed but whose event write did not (after a crash). */
  async recordPendingEvents(): Promise<number> {
    const pending = await this.collection
      .find({ pendingEvent: { $ne: null } }, { projection: { _id: 0 } })
      .limit(1000)
      .toArray();
    for (const review of pending) await this.afterWrite(review, review.pendingEvent, true);
    return pending.length;
  }

  private async afterWrite(review: Review, topic: ReviewTopic | null | undefined, isPublic: boolean): Promise<void> {
    if (topic) {
      try {
        await this.events.insertOne({
          _id: `${review.id}:${review.version}`,
          shopId: review.shopId,
          reviewId: review.id,
          version: review.version,
          topic,
          created: this.now(),
          dispatched: false,
        });
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
      }
      await this.collection.updateOne({ id: review.id, version: review.version }, { $set: { pendingEvent: null } });
    }
    // Other processes compare these counters to decide whether their cached copy of the shop's reviews is stale.
    await this.bumpShopVersion(review.shopId, isPublic);
    for (const listener of this.listeners) listener(review.shopId, review);
    if (isPublic) for (const listener of this.publicListeners) listener(review.shopId, review);
  }

  private async bumpShopVersion(shopId: number, isPublic: boolean): Promise<void> {
    const inc = isPublic ? { v: 1, p: 1 } : { v: 1 };
    try {
      await this.shopVersions.updateOne({ _id: shopId }, { $inc: inc }, { upsert: true });
    } catch (err) {
      // Two first writes of a shop's reviews both upsert its counter: the loser's increment goes to the winner's.
      if (!isDuplicateKey(err)) throw err;
      await this.shopVersions.updateOne({ _id: shopId }, { $inc: inc });
    }
  }

  /** A number that changes whenever one of the shop's reviews changes (in any process). */
  async shopVersion(shopId: number): Promise<number> {
    return (await this.shopVersions.findOne({ _id: shopId }))?.v ?? 0;
  }

  /** The shop's counters: `all` changes with every write, `public` with writes that change public displays. */
  async versionsOf(shopId: number): Promise<{ all: number; public: number }> {
    const found = await this.shopVersions.findOne({ _id: shopId });
    return { all: found?.v ?? 0, public: found?.p ?? 0 };
  }
}
