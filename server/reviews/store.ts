// Reviews (the spec's "ratings") and the one path through which every review write goes: imports, moderation,
// consumer forms, replies. Each write bumps the review's `version`; what the write leaves for later work is recorded
// by its followers right after it: the review event (`reviews.created` when a review is first published,
// `reviews.updated`, `reviews.deleted`) for the webhooks (webhooks/event-queue.ts), the e-mails it makes due
// (mail/review-queue.ts). Each writes a small queue collection keyed by `_id`, so nothing has to search the reviews.
//
// Without transactions the review and what follows it are separate writes. A write is announced first in
// `review_writes` (unfinished-store.ts) and the announcement removed once the followers are done: one left behind marks a
// crash (or a failed write) in between, and finishInterruptedWrites() has the followers redo the shop's reviews
// written since. Followers are idempotent (their queue entries are keyed by the review and version).
import type { Db, Collection, Filter } from '../db/index.js';
import { ReviewOrderIndex } from './order-index-store.js';
import { ReviewLinkStore } from './link-store.js';
import { bumpShopCounters, inBatches, insertNumbered, onlyDuplicateKeys, updateBatches } from '../db/index.js';
import { versionedUpdate } from '../db/versioned.js';
import type { Language } from '../languages.js';
import { noSubRatings, removedPhotos } from './rules.js';
import { givenBackPhotos, withheldPhotos, withheldPhotosRemoved } from './rules.js';
import { sameAddress } from '../email.js';
import { originOf } from './origin.js';
import { formatDate } from '../time.js';
import { UnfinishedWrites } from './unfinished-store.js';
import type {
  ChosenFilter,
  ChosenSort,
  ImportedReviewDraft,
  NewReview,
  Review,
  ReviewChanges,
  ReviewTopic,
  WriteFollower,
} from './model.js';

function isPublished(r: Pick<Review, 'deleted' | 'quarantine' | 'is_spam' | 'valid'>): boolean {
  return !r.deleted && !r.quarantine && !r.is_spam && r.valid;
}

/** Which event a write causes, given the review before (undefined for a new one) and after. */
function topicFor(before: Pick<Review, 'announced'> | undefined, after: Review): ReviewTopic | undefined {
  const wasAnnounced = before?.announced ?? false;
  if (!wasAnnounced) return after.published ? 'reviews.created' : undefined;
  return after.deleted ? 'reviews.deleted' : 'reviews.updated';
}

/** The shop page's orders (pages/listing.ts) as database sorts: ties broken newest first, as in memory. */
const CHOSEN_SORTS: Record<ChosenSort, Record<string, 1 | -1>> = {
  newest: { created: -1, id: -1 },
  oldest: { created: 1, id: 1 },
  highest: { rating: -1, created: -1, id: -1 },
  lowest: { rating: 1, created: -1, id: -1 },
};
/** The indexes that serve them (ensureIndexes). */
const LISTING_INDEXES: [string, Record<string, 1 | -1>][] = [
  ['shop_published_created_id', { shopId: 1, published: 1, created: -1, id: -1 }],
  ['shop_published_rating_up', { shopId: 1, published: 1, rating: 1, created: -1, id: -1 }],
  ['shop_published_rating_down', { shopId: 1, published: 1, rating: -1, created: -1, id: -1 }],
  ['shop_published_photos_created_id', { shopId: 1, published: 1, 'photos.state': 1, created: -1, id: -1 }],
];

const chosenFilter = (shopId: number, f: ChosenFilter): Filter<Review> => ({
  shopId,
  published: true,
  ...(f.stars.length ? { rating: { $in: [...f.stars] } } : {}),
  ...(f.photos ? { 'photos.state': 'shown' } : {}),
  ...(f.only ? { id: { $in: [...f.only] } } : f.except?.length ? { id: { $nin: [...f.except] } } : {}),
});

/** Gets the shop whose reviews changed and the review as written (webhooks build payloads from it). */
type Listener = (shopId: number, review: Review) => void;

/** A shop's review counters: `v` moves with every write, `p` only with writes that change what the public sees. */
interface ShopVersions {
  _id: number;
  v: number;
  p?: number;
}

/** Whether a write changes public displays: a published review before or after it. A quarantined one changes none. */
const changesPublic = (before: Pick<Review, 'published'> | undefined, after: Pick<Review, 'published'>): boolean =>
  before?.published === true || after.published;

/** What Google's product review feed reads of a published review (publishedForFeed). */
const FEED_FIELDS = ['id', 'name', 'rating', 'comment', 'language', 'country', 'created', 'source', 'verified'].concat([
  'products',
  'published',
  'deleted',
  'is_spam',
  'origin',
  'incentivised',
  'title',
  'photos',
]);

/** How far before an interrupted write's announcement its reviews are looked for (other processes' clocks). */
const UNFINISHED_SLACK_MS = 60_000;

/** What the product surfaces read of a review: no address or link secret. */
const PRODUCT_PROJECTION = { _id: 0, email: 0, editToken: 0, confirmToken: 0, pendingEvent: 0, photo_urls: 0 };

export class ReviewStore {
  private readonly collection: Collection<Review>;
  private readonly unfinished: UnfinishedWrites;
  private readonly followers: WriteFollower[] = [];
  /** One small document per shop, counting its review writes: a cheap cross-process "has anything changed?". */
  /** (shop, order) → review ids, so Add invitation finds an order's reviews without a scan. */
  private readonly orders: ReviewOrderIndex;
  private readonly links: ReviewLinkStore;
  private readonly shopVersions: Collection<ShopVersions>;
  private readonly listeners: Listener[] = [];
  private readonly publicListeners: Listener[] = [];
  private readonly removalHooks: ((reviews: readonly Review[]) => Promise<void>)[] = [];

  constructor(
    private readonly db: Db,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.collection = db.collection<Review>('reviews');
    this.orders = new ReviewOrderIndex(db);
    this.links = new ReviewLinkStore(db);
    this.unfinished = new UnfinishedWrites(db, now);
    this.shopVersions = db.collection<ShopVersions>('review_versions');
  }

  async ensureIndexes(): Promise<void> {
    await this.collection.createIndex({ id: 1 }, { unique: true, name: 'id_1' });
    await this.collection.createIndex({ shopId: 1, published: 1, created: -1 }, { name: 'shop_published_created' });
    await this.collection.createIndex({ shopId: 1, modified: -1 }, { name: 'shop_modified' });
    await this.collection.createIndex({ shopId: 1, email: 1 }, { name: 'shop_email' });
    await this.collection.createIndex({ shopId: 1, order: 1 }, { name: 'shop_order' });
    await this.orders.backfill(() =>
      this.collection.find({ order: { $ne: '' } }, { projection: { _id: 0, id: 1, shopId: 1, order: 1 } }),
    );
    await this.links.backfill(() =>
      this.collection.find(
        { $or: [{ editToken: { $ne: null } }, { confirmToken: { $ne: null } }] },
        { projection: { _id: 0, id: 1, editToken: 1, confirmToken: 1 } },
      ),
    );
    await this.collection.createIndex({ pendingEvent: 1 }, { name: 'pending_event' });
    await this.unfinished.ensureIndexes();
    // A shop too large for its product index in memory is asked per product (products/read-model.ts).
    for (const field of ['external_id', 'sku', 'gtin'])
      await this.collection.createIndex({ shopId: 1, [`products.${field}`]: 1 }, { name: `shop_product_${field}` });
    // Issue 20, the shop page's choices read from the database (MongoDB; FerretDB scans whatever the index): each
    // order the page offers is one of these read forwards or backwards, `id` last as the page's tie-break (equal
    // times are common in imports), so a sort with skip/limit stops after the page instead of sorting the shop:
    // newest/oldest (and a star filter, merged per star), lowest and highest score, and with photos.
    for (const [name, keys] of LISTING_INDEXES) await this.collection.createIndex(keys, { name });
    // Their first versions, without the tie-break (never in a release; dropped where a development database has them).
    for (const name of ['shop_published_rating_created', 'shop_published_photos_created'])
      await this.collection.dropIndex(name).catch(() => undefined);
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

  /**
   * A review by id. Reviews are stored under their id as `_id` (FerretDB looks up only an exact `_id` without a
   * scan); those stored before that carry a generated `_id` and are found by `id`, a scan, but only ids up to the
   * highest of them (legacyMaxId) can be such a review: an unknown higher id costs no scan.
   */
  async get(id: number): Promise<Review | null> {
    const keyed = await this.collection.findOne({ _id: id } as unknown as Filter<Review>, { projection: { _id: 0 } });
    if (keyed || id > (await this.legacyMaxId())) return keyed;
    return this.collection.findOne({ id }, { projection: { _id: 0 } });
  }

  /** The highest id among reviews stored before reviews were keyed by id (0 when none); read once per process. */
  private legacyMax: Promise<number> | undefined;
  private legacyMaxId(): Promise<number> {
    this.legacyMax ??= this.collection
      .find({ _id: { $type: 'objectId' } } as unknown as Filter<Review>, { projection: { _id: 0, id: 1 } })
      .sort({ id: -1 })
      .limit(1)
      .toArray()
      .then(([highest]) => highest?.id ?? 0)
      .catch((err: unknown) => {
        this.legacyMax = undefined;
        throw err;
      });
    return this.legacyMax;
  }

  /** The live review whose edit or confirmation link carries `token`. */
  async byLinkToken(field: 'editToken' | 'confirmToken', token: string): Promise<Review | null> {
    const reviewId = await this.links.reviewOf(token);
    const review = reviewId === null ? null : await this.get(reviewId);
    return review && review[field] === token && !review.deleted ? review : null;
  }

  /**
   * The reviews written for one order of the shop. A scan on FerretDB: Add invitation asks only for orders that
   * have a consent receipt.
   */
  async byOrder(shopId: number, order: string): Promise<Review[]> {
    // Keyed look-up first (order-index-store.ts): most orders have no review, and then no review is read.
    const ids = await this.orders.ids(shopId, order);
    if (ids.length === 0) return [];
    const found = await this.collection.find({ id: { $in: ids } }, { projection: { _id: 0 } }).toArray();
    return found.filter((r) => r.shopId === shopId && r.order === order);
  }

  /** Erasure: forgets which reviews these orders had (the reviews themselves are anonymised by `update`). */
  async forgetOrders(orders: readonly { shopId: number; order: string }[]): Promise<void> {
    await this.orders.forget(orders);
  }

  /** Every review that waits for its writer's confirmation (a scan: the start-up backfill of their queue only). */
  async awaitingConfirmation(): Promise<Review[]> {
    return this.collection
      .find({ confirmToken: { $ne: null }, quarantine: true, deleted: false }, { projection: { _id: 0 } })
      .toArray();
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
    // Before the delete: a crash in between leaves a review whose photos' deletion is queued (harmless, as nothing
    // showed them), never photo files without their review.
    for (const hook of this.removalHooks) await hook(gone);
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
    const write = await this.unfinished.begin(shopId);
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
        origin: 'email_confirmed',
        incentivised: input.incentivised ?? false,
        imported_from: input.imported_from ?? null,
        original_date: input.original_date ?? null,
        ...(input.source_verified === undefined ? {} : { source_verified: input.source_verified }),
        // Without an order date the experience is dated by what is known: an import's original date, else today.
        experience_date: input.experience_date ?? formatDate(input.original_date ?? input.created ?? now),
        products: input.products ?? [],
        ...(input.photos?.length ? { photos: input.photos } : {}),
        reply: null,
        editToken: input.editToken ?? null,
        editMailDue: input.editMailDue ?? null,
        editMailSent: null,
        confirmToken: input.confirmToken ?? null,
        confirmMailSent: null,
        version: 1,
        pendingEvent: null,
      };
      draft.origin = originOf(draft);
      draft.published = isPublished(draft);
      draft.pendingEvent = topicFor(undefined, draft) ?? null;
      draft.announced = draft.published;
      return { _id: id, ...draft } as Review;
    });
    const { _id, ...clean } = review as Review & { _id?: unknown };
    await this.orders.add(shopId, clean.order, clean.id);
    await this.links.add(clean.id, [clean.editToken, clean.confirmToken]);
    await this.afterWrite(undefined, clean, changesPublic(undefined, clean));
    await this.unfinished.end(write);
    return clean;
  }

  /**
   * Applies changes through the single write path; returns the new review, or null when there is none. Changes
   * that depend on the review (erasure rewrites its texts) are a function of it, applied to the version written.
   */
  async update(
    id: number,
    changes: ReviewChanges | ((before: Review) => ReviewChanges),
    /** `quiet`: no review event for this write (a bulk import's photos: server/imports/photo-import.ts). */
    options: { quiet?: boolean } = {},
  ): Promise<Review | null> {
    return this.writeVersion(id, async (before) => {
      const change = typeof changes === 'function' ? changes(before) : changes;
      const after: Review = { ...before, ...change, modified: this.now(), version: before.version + 1 };
      // Indexed before the write: the link must open the review as soon as the review carries it.
      await this.links.add(
        id,
        [after.editToken, after.confirmToken].filter((t) => t !== before.editToken && t !== before.confirmToken),
      );
      // Proving the order (the shop's Add invitation) moves the origin with it: one write, one event.
      after.origin = originOf(after);
      after.published = isPublished(after);
      const topic = topicFor(before, after);
      after.announced = before.announced || after.published;
      after.pendingEvent = options.quiet ? null : (topic ?? null);
      return after;
    });
  }

  /**
   * The shop marked the review read (or unread): bookkeeping of the shop's inbox, not a change of the review that
   * anyone else sees, so no event (the shop's webhooks are not told; docs/decisions.md, "Merchant dashboard") and no e-mail. It
   * takes a new version, so a write in flight that read the review before cannot undo it, and moves `modified` and
   * the shop's counter (not the public one), so the merchant's caches in every process see it. Looked up by `_id`.
   */
  async markRead(id: number, read: boolean): Promise<Review | null> {
    return versionedUpdate<Review, Review | null>(
      this.collection,
      () => this.get(id),
      async (before) => {
        if (before.deleted) return { answer: null };
        if (before.read === read) return { answer: before };
        const set = { read, modified: this.now(), version: before.version + 1 };
        // Listeners see no pending event: this version caused none (a stored one is the previous write's, for repair).
        const after: Review = { ...before, ...set, pendingEvent: null };
        return {
          // Reviews keyed by id are updated by `_id` (no scan on FerretDB); only ids up to legacyMaxId may not be.
          where: (id > (await this.legacyMaxId()) ? { _id: id } : { id }) as Filter<Review>,
          set,
          landed: async () => {
            await this.bumpShopVersion(before.shopId, false);
            for (const listener of this.listeners) listener(before.shopId, after);
            return after;
          },
        };
      },
      { what: `Review ${id}` },
    );
  }

  /**
   * A page of the reviews the merchant lists (not deleted, not spam), newest first, and how many there are. The
   * ratings read model asks only for shops too large to hold in its cache.
   */
  async listedPage(
    shopId: number,
    q: { language?: string; offset: number; limit: number },
  ): Promise<{ reviews: Review[]; total: number }> {
    const filter = {
      shopId,
      deleted: false,
      is_spam: false,
      ...(q.language ? { language: q.language as Language } : {}),
    };
    const [reviews, total] = await Promise.all([
      this.collection
        .find(filter, { projection: { _id: 0 } })
        .sort({ created: -1, id: -1 })
        .skip(q.offset)
        .limit(q.limit)
        .toArray(),
      this.collection.countDocuments(filter),
    ]);
    return { reviews, total };
  }

  /** Every listed review of the shop (not deleted, not spam), unsorted; null when there are more than `max`. */
  async allListed(shopId: number, max: number): Promise<Review[] | null> {
    const docs = await this.collection
      .find({ shopId, deleted: false, is_spam: false }, { projection: { _id: 0 } })
      .limit(max + 1)
      .toArray();
    return docs.length > max ? null : docs;
  }

  /** The scores of the shop's published reviews (for its averages), and whether each was incentivised. */
  async publishedScores(shopId: number): Promise<Pick<Review, 'rating' | 'ratings' | 'incentivised'>[]> {
    return this.collection
      .find({ shopId, published: true }, { projection: { _id: 0, rating: 1, ratings: 1, incentivised: 1 } })
      .toArray();
  }

  /** A page of the shop's published reviews, newest first. */
  async publishedPage(shopId: number, offset: number, limit: number): Promise<Review[]> {
    return this.collection
      .find({ shopId, published: true }, { projection: { _id: 0 } })
      .sort({ created: -1, id: -1 })
      .skip(offset)
      .limit(limit)
      .toArray();
  }

  /** How many published reviews the shop has, and how many of them are verified. */
  async publishedCounts(shopId: number): Promise<{ total: number; verified: number }> {
    const [total, verified] = await Promise.all([
      this.collection.countDocuments({ shopId, published: true }),
      this.collection.countDocuments({ shopId, published: true, verified: true }),
    ]);
    return { total, verified };
  }

  /**
   * The shop's reviews modified at or after `since` (all when undefined), newest change first, in batches of
   * `batchSize`: the product feed renders them as they come, so its memory does not grow with the shop's history.
   */
  async *modifiedSince(shopId: number, since: Date | undefined, batchSize: number): AsyncGenerator<Review[]> {
    const filter = since ? { shopId, modified: { $gte: since } } : { shopId };
    yield* inBatches(
      this.collection
        .find(filter, { projection: { _id: 0 } })
        .sort({ modified: -1, id: -1 })
        .batchSize(batchSize),
      batchSize,
    );
  }

  /**
   * Every review of these shops, any status, unsorted, in batches: the dashboard's view (dashboard/review-view.ts)
   * reads shops once this way. Unsorted, as FerretDB sorts in its own process (about 40 % slower at 20,000).
   */
  async *allOfShops(shopIds: readonly number[], batchSize: number): AsyncGenerator<Review[]> {
    const filter = { shopId: { $in: [...shopIds] } };
    yield* inBatches(this.collection.find(filter, { projection: { _id: 0 } }).batchSize(batchSize), batchSize);
  }

  /**
   * How the shop's published reviews were collected and checked, for its policy page (policy/numbers.ts), which
   * asks only when the shop's public reviews changed.
   */
  async publishedOrigins(shopId: number): Promise<Pick<Review, 'source' | 'verified' | 'origin' | 'incentivised'>[]> {
    return this.collection
      .find({ shopId, published: true }, { projection: { _id: 0, source: 1, verified: 1, origin: 1, incentivised: 1 } })
      .toArray();
  }

  /** Erasure: the reviews written under this address (any case), in one shop or all; deleted ones are blank already. */
  async findByAddress(email: string, shopId?: number): Promise<Review[]> {
    const scope = shopId === undefined ? {} : { shopId };
    return this.collection
      .find({ ...scope, deleted: false, email: sameAddress(email) }, { projection: { _id: 0 } })
      .toArray();
  }

  /**
   * Soft delete: gone from ratings and summary, kept in the product feed as deleted. Only the ids, `deleted`,
   * `modified` and products remain; name, e-mail, text and reply are blanked.
   */
  async softDelete(
    id: number,
    removalGround: string | null = null,
    { withholdPhotos = false }: { withholdPhotos?: boolean } = {},
  ): Promise<Review | null> {
    return this.writeVersion(id, (before) => {
      const after: Review = {
        ...before,
        deleted: true,
        ...(removalGround === null ? {} : { removalGround }),
        published: false,
        name: '',
        email: '',
        comment: null,
        reply: null,
        // The products stay (the feed reports the deletion per product), the customer's words about them do not.
        products: before.products.map((p) => ({ ...p, content: '' })),
        // Photos go with the review: their files are queued for deletion by the photos' write follower. A removal
        // that can be contested withholds them instead (files kept until it is final: server/moderation).
        ...(before.photos
          ? { photos: withholdPhotos ? withheldPhotos(before.photos) : removedPhotos(before.photos) }
          : {}),
        modified: this.now(),
        version: before.version + 1,
      };
      after.pendingEvent = topicFor(before, after) ?? null;
      return after;
    });
  }

  /**
   * A removal reversed on appeal (server/moderation): the deleted review comes back with the texts the removal took,
   * which moderation kept apart. A new version, `reviews.updated` once it had been announced; null when the review
   * is not deleted (or gone).
   */
  async restore(
    id: number,
    texts: Pick<Review, 'name' | 'email' | 'comment' | 'reply'> & { products: string[] },
    photos: readonly string[] = [],
  ) {
    return this.writeVersion(
      id,
      (before) => {
        const after: Review = {
          ...before,
          deleted: false,
          removalGround: null,
          name: texts.name,
          email: texts.email,
          comment: texts.comment,
          reply: texts.reply,
          products: before.products.map((p, i) => ({ ...p, content: texts.products[i] ?? '' })),
          // The photos the removal withheld, as they were.
          ...(before.photos && photos.length ? { photos: givenBackPhotos(before.photos, photos) } : {}),
          modified: this.now(),
          version: before.version + 1,
        };
        after.published = isPublished(after);
        after.pendingEvent = topicFor(before, after) ?? null;
        after.announced = before.announced || after.published;
        return after;
      },
      { deleted: true },
    );
  }

  /**
   * Withheld photos go for good (a decision's six months are over, or its writer was erased), on a live or a deleted
   * review alike: their files are then deleted by the photos' write follower. `only` limits it to those photos.
   * Null when there was nothing to take off.
   */
  async removeWithheldPhotos(id: number, only?: readonly string[]): Promise<Review | null> {
    const current = await this.get(id);
    if (!current?.photos?.some((p) => p.state === 'withheld' && (!only || only.includes(p.id)))) return null;
    return this.writeVersion(
      id,
      (before) => {
        const after: Review = {
          ...before,
          photos: withheldPhotosRemoved(before.photos ?? [], only),
          modified: this.now(),
          version: before.version + 1,
        };
        // A deleted review was announced as deleted once: hidden photos going changes nothing anyone was told.
        after.pendingEvent = before.deleted ? null : (topicFor(before, after) ?? null);
        return after;
      },
      { deleted: current.deleted },
    );
  }

  /**
   * A new version of a live review through the single write path: announced (for repair) before it is written, and
   * written only over the version `next` was given, else read again; then its followers and listeners.
   */
  private writeVersion(
    id: number,
    next: (before: Review) => Review | Promise<Review>,
    { deleted = false }: { deleted?: boolean } = {},
  ): Promise<Review | null> {
    return versionedUpdate<Review, Review | null>(
      this.collection,
      () => this.get(id),
      async (before) => {
        // Only a restore writes over a deleted review; every other write leaves it alone.
        if (before.deleted !== deleted) return { answer: null };
        const write = await this.unfinished.begin(before.shopId);
        const after = await next(before);
        // replyMailSent is the mailer's, set without a new version: a write that read the review before must not undo it.
        const { id: _id, shopId: _s, created: _c, replyMailSent: _m, ...set } = after;
        return {
          where: { id },
          set,
          landed: async () => {
            await this.afterWrite(before, after, changesPublic(before, after));
            await this.unfinished.end(write);
            return after;
          },
          missed: () => this.unfinished.end(write),
        };
      },
      { what: `Review ${id}` },
    );
  }

  /**
   * Replaces the edit link of a live review (the writer asked for a new one after the old expired), only if it still
   * has the link `from`. Link bookkeeping, like the mail's: no new version and no event. Returns whether it did.
   */
  async renewEditLink(id: number, from: string, to: { token: string; sent: Date | null }): Promise<boolean> {
    // Indexed before the write, as in update(): the new link must open the review as soon as the review carries it.
    await this.links.add(id, [to.token]);
    const result = await this.collection.updateOne(
      { id, editToken: from, deleted: false },
      { $set: { editToken: to.token, editMailSent: to.sent } },
    );
    return result.modifiedCount === 1;
  }

  /**
   * Bulk imports (server/imports/): `count` consecutive review ids drawn from the sequence at once, the first
   * returned. One counter update per batch instead of one per review.
   */
  async allocateIds(count: number): Promise<number> {
    const counter = await this.db
      .collection<{ _id: string; seq: number }>('counters')
      .findOneAndUpdate({ _id: 'reviews' }, { $inc: { seq: count } }, { upsert: true, returnDocument: 'after' });
    return (counter?.seq ?? count) - count + 1;
  }

  /**
   * Bulk imports: writes a batch of imported reviews at once, bypassing the single write path on purpose: an import
   * sends no e-mail and records no review event (a shop's back end resyncs through ratings.json), so there are no
   * followers to run. Each review keeps `_id = id`; a review already there (an interrupted batch written again) is
   * left as it is. The shop's counters move once per review, as after single writes, so every process's caches and
   * views see the batch, and this process's listeners are told at once; with `publicLater` the public part is told
   * once for the whole import instead (importedPublished).
   */
  async insertImported(
    shopId: number,
    drafts: readonly ImportedReviewDraft[],
    ids: number,
    options: {
      publicLater?: boolean;
      /** `size` reviews per insert, `before` awaited before each write: shorter holds of the database's one writer. */
      pieces?: { size: number; before: () => Promise<unknown> };
    } = {},
  ): Promise<Review[]> {
    const now = this.now();
    const written = drafts.map((input, i): Review => {
      const review: Review = {
        id: ids + i,
        shopId,
        name: input.name,
        email: input.email,
        rating: input.rating,
        ratings: noSubRatings(),
        comment: input.comment,
        language: input.language,
        country: input.country,
        order: '',
        created: input.original_date,
        modified: now,
        read: true,
        quarantine: input.quarantine,
        is_spam: false,
        valid: true,
        deleted: false,
        published: false,
        announced: false,
        verified: false,
        emailConfirmed: false,
        source: 'import',
        origin: 'imported',
        incentivised: input.incentivised,
        imported_from: input.imported_from,
        original_date: input.original_date,
        source_verified: input.source_verified,
        import_id: input.import_id,
        title: input.title,
        experience_date: input.experience_date,
        source_status: input.source_status,
        source_order: input.source_order,
        photo_urls: input.photo_urls,
        products: input.products ?? [],
        reply: input.reply ? { ...input.reply, notify: false, revision: 1, notified: null } : null,
        editToken: null,
        editMailDue: null,
        editMailSent: null,
        confirmToken: null,
        confirmMailSent: null,
        version: 1,
        pendingEvent: null,
      };
      review.published = isPublished(review);
      // Announced without an event: later changes are `reviews.updated` like those of any published review.
      review.announced = review.published;
      return review;
    });
    if (!written.length) return [];
    const piece = options.pieces?.size ?? written.length;
    for (let i = 0; i < written.length; i += piece) {
      await options.pieces?.before();
      try {
        await this.collection.insertMany(
          written.slice(i, i + piece).map((r) => ({ _id: r.id, ...r }) as Review),
          { ordered: false },
        );
      } catch (err) {
        if (!onlyDuplicateKeys(err)) throw err;
      }
    }
    await options.pieces?.before();
    await this.bulkWritten(shopId, written, !options.publicLater && written.some((r) => r.published));
    return written;
  }

  /**
   * Bulk imports: the public change of the batches written with `publicLater`, once at the end of the run. Told per
   * batch, every public cache of the shop (ratings, widget pages, policy numbers, product index) would be emptied
   * each second of an import, and each read in between would load the shop's reviews again (a scan on FerretDB).
   */
  async importedPublished(shopId: number, last: Review | undefined): Promise<void> {
    await this.bumpShopVersion(shopId, true);
    if (last) for (const listener of this.publicListeners) listener(shopId, last);
  }

  /**
   * Bulk imports: removes what landed of a batch that was interrupted (a crash between its writes), so that writing
   * it again does not leave a review twice. After a crash only; the batch's ids are consecutive.
   */
  async removeImportedRange(shopId: number, importId: string, range: { from: number; to: number }): Promise<void> {
    const ids = Array.from({ length: range.to - range.from + 1 }, (_, i) => range.from + i);
    for (let i = 0; i < ids.length; i += 500) {
      await this.collection.bulkWrite(
        ids
          .slice(i, i + 500)
          .map((id) => ({ deleteOne: { filter: { _id: id, import_id: importId } as unknown as Filter<Review> } })),
        { ordered: false },
      );
    }
    await this.bumpShopVersion(shopId, true);
  }

  /** Bulk imports: the reviews an import wrote, in batches (a scan, once per decision on the whole import). */
  async *ofImport(shopId: number, importId: string, batchSize: number): AsyncGenerator<Review[]> {
    yield* inBatches(
      this.collection
        .find({ shopId, import_id: importId, deleted: false }, { projection: { _id: 0 } })
        .batchSize(batchSize),
      batchSize,
    );
  }

  /**
   * Bulk imports: the decision on a batch of an import's reviews: held ones kept (published) or removed on a ground,
   * or the whole import undone (removed, no ground). One new version each, written over the version read (a review
   * changed meanwhile is left out and counted), without events or e-mails, as the import itself. Returns the reviews
   * as written.
   */
  async decideImported(
    batch: readonly Review[],
    decision: { keep: true } | { remove: string | null },
  ): Promise<Review[]> {
    const now = this.now();
    const next = batch
      .filter((r) => !r.deleted)
      .map((before): Review => {
        const after: Review =
          'keep' in decision
            ? { ...before, quarantine: false }
            : {
                ...before,
                deleted: true,
                ...(decision.remove === null ? {} : { removalGround: decision.remove }),
                name: '',
                email: '',
                comment: null,
                reply: null,
                title: '',
                photo_urls: [],
                // Taken off with the review: the import queues the deletion of their files (imports/photo-import.ts).
                ...(before.photos?.length ? { photos: removedPhotos(before.photos) } : {}),
              };
        after.published = isPublished(after);
        after.announced = before.announced || after.published;
        return { ...after, modified: now, version: before.version + 1, pendingEvent: null };
      });
    const landed: Review[] = [];
    for (const part of updateBatches(next)) {
      const result = await this.collection.bulkWrite(
        part.map((r) => {
          const { id, shopId: _s, created: _c, replyMailSent: _m, ...set } = r;
          return {
            updateOne: {
              filter: { _id: id, version: r.version - 1 } as unknown as Filter<Review>,
              update: { $set: set },
            },
          };
        }),
        { ordered: false },
      );
      // A review changed between the read and this write keeps that change; the rest landed.
      if (result.modifiedCount === part.length) landed.push(...part);
      else
        for (const r of part)
          if (
            (await this.collection.countDocuments({ _id: r.id, version: r.version } as unknown as Filter<Review>)) > 0
          )
            landed.push(r);
    }
    const byShop = new Map<number, Review[]>();
    for (const r of landed) byShop.set(r.shopId, [...(byShop.get(r.shopId) ?? []), r]);
    for (const [shopId, reviews] of byShop) {
      const before = new Map(batch.map((r) => [r.id, r]));
      await this.bulkWritten(
        shopId,
        reviews,
        reviews.some((r) => r.published || before.get(r.id)?.published),
      );
    }
    return landed;
  }

  /** After a bulk write: the counters (one step per review, as single writes) and this process's listeners. */
  private async bulkWritten(shopId: number, reviews: readonly Review[], isPublic: boolean): Promise<void> {
    if (!reviews.length) return;
    await bumpShopCounters(this.shopVersions, shopId, isPublic ? { v: reviews.length, p: 1 } : { v: reviews.length });
    for (const review of reviews) for (const listener of this.listeners) listener(shopId, review);
    if (isPublic) for (const listener of this.publicListeners) listener(shopId, reviews[reviews.length - 1]!);
  }

  /** Runs before reviews are removed outright (removeUnconfirmed), with the reviews as they are. */
  beforeRemoval(hook: (reviews: readonly Review[]) => Promise<void>): void {
    this.removalHooks.push(hook);
  }

  /** Registers what must follow every write (webhooks/event-queue.ts, mail/review-queue.ts). */
  follow(follower: WriteFollower): void {
    this.followers.push(follower);
  }

  /**
   * Redoes the followers of writes that were announced before `olderThan` and never finished (a crash or a failed
   * write in between): the shop's reviews modified since the announcement, a scan on FerretDB, but only after such
   * an interruption. Returns how many reviews were followed again.
   */
  async finishInterruptedWrites(olderThan: Date): Promise<number> {
    let redone = 0;
    for (const write of await this.unfinished.olderThan(olderThan)) {
      // The write's `modified` is taken after its announcement; a little slack covers clocks of other processes.
      const since = new Date(write.at.getTime() - UNFINISHED_SLACK_MS);
      const cursor = this.collection.find(
        { shopId: write.shopId, modified: { $gte: since } },
        { projection: { _id: 0 } },
      );
      for await (const review of cursor) {
        for (const follower of this.followers) await follower.follow(undefined, review);
        redone++;
      }
      await this.unfinished.end(write._id);
    }
    return redone;
  }

  /**
   * The start-up migration to the queues: reviews written by a version that still cleared `pendingEvent` once the
   * event was recorded, and reviews with an e-mail outstanding. A scan, once (the migration records that it ran).
   */
  async *needingFollowUp(): AsyncGenerator<Review[]> {
    const filter = {
      $or: [
        { pendingEvent: { $ne: null } },
        { confirmMailSent: null, confirmToken: { $ne: null }, deleted: false },
        { editMailSent: null, editMailDue: { $ne: null }, editToken: { $ne: null }, deleted: false },
        { 'reply.notify': true, 'reply.notified': null, deleted: false },
      ],
    };
    const cursor = this.collection.find(filter, { projection: { _id: 0 } }).batchSize(500);
    let batch: Review[] = [];
    for await (const review of cursor) {
      batch.push(review);
      if (batch.length === 500) {
        yield batch;
        batch = [];
      }
    }
    if (batch.length) yield batch;
  }

  /** Several reviews by id (one query: a scan on FerretDB, so callers ask for a page at a time). */
  async byIds(ids: readonly number[]): Promise<Review[]> {
    if (ids.length === 0) return [];
    return this.collection.find({ id: { $in: [...ids] } }, { projection: { _id: 0 } }).toArray();
  }

  /**
   * Records that an e-mail about the review went out, only for the version of it that was sent (a newer reply gets
   * its own). Mail bookkeeping is not a change of the review: no new version, no event, no followers.
   */
  async markMailSent(
    review: Pick<Review, 'id' | 'reply'>,
    kind: 'edit' | 'confirm' | 'reply',
    at: Date,
  ): Promise<void> {
    if (kind === 'edit')
      await this.collection.updateOne({ id: review.id, editMailSent: null }, { $set: { editMailSent: at } });
    else if (kind === 'confirm')
      await this.collection.updateOne({ id: review.id, confirmMailSent: null }, { $set: { confirmMailSent: at } });
    else {
      // Whatever became of the reply meanwhile, an e-mail about it went out: the next one waits a day from now.
      await this.collection.updateOne({ id: review.id }, { $set: { replyMailSent: at } });
      await this.collection.updateOne(
        { id: review.id, 'reply.revision': review.reply?.revision ?? 0, 'reply.notified': null },
        { $set: { 'reply.notified': at } },
      );
    }
  }

  private async afterWrite(before: Review | undefined, review: Review, isPublic: boolean): Promise<void> {
    for (const follower of this.followers) await follower.follow(before, review);
    // Other processes compare these counters to decide whether their cached copy of the shop's reviews is stale.
    await this.bumpShopVersion(review.shopId, isPublic);
    for (const listener of this.listeners) listener(review.shopId, review);
    if (isPublic) for (const listener of this.publicListeners) listener(review.shopId, review);
  }

  private async bumpShopVersion(shopId: number, isPublic: boolean): Promise<void> {
    await bumpShopCounters(this.shopVersions, shopId, isPublic ? { v: 1, p: 1 } : { v: 1 });
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

  /**
   * The shop's published reviews, for its product index (products/read-model.ts), which keeps those that rated a
   * product; null when there are more than `max` (the index then asks per product: publishedWithProduct). No address
   * or link secret is read.
   */
  async publishedForProducts(shopId: number, max: number): Promise<Review[] | null> {
    const docs = await this.collection
      .find({ shopId, published: true }, { projection: PRODUCT_PROJECTION })
      .limit(max + 1)
      .toArray();
    return docs.length > max ? null : docs;
  }

  /** The shop's published reviews of a product named by its id, SKU or GTIN (indexed: `shop_product_*`). */
  async publishedWithProduct(shopId: number, field: 'external_id' | 'sku' | 'gtin', value: string): Promise<Review[]> {
    return this.collection
      .find({ shopId, published: true, [`products.${field}`]: value }, { projection: PRODUCT_PROJECTION })
      .toArray();
  }

  /**
   * The shop's published reviews with the fields Google's product review feed reads (no addresses, no link
   * secrets), unsorted, in batches: the feed's build (feed/google-build.ts) writes them as they come.
   */
  async *publishedForFeed(shopId: number, batchSize: number): AsyncGenerator<Review[]> {
    const projection = Object.fromEntries([['_id', 0], ...FEED_FIELDS.map((f) => [f, 1])]);
    yield* inBatches(this.collection.find({ shopId, published: true }, { projection }).batchSize(batchSize), batchSize);
  }

  /**
   * Issue 20 on MongoDB: a page of the shop's published reviews as the shopper filtered and ordered them, one
   * indexed query (LISTING_INDEXES) with skip and limit.
   */
  async publishedChosen(
    shopId: number,
    filter: ChosenFilter,
    sort: ChosenSort,
    offset: number,
    limit: number,
  ): Promise<Review[]> {
    if (limit <= 0 || filter.only?.length === 0) return [];
    return this.collection
      .find(chosenFilter(shopId, filter), { projection: { _id: 0 } })
      .sort(CHOSEN_SORTS[sort])
      .skip(offset)
      .limit(limit)
      .toArray();
  }

  /** How many of the shop's published reviews the shopper's filter keeps (counted on the same indexes). */
  async publishedChosenCount(shopId: number, filter: ChosenFilter): Promise<number> {
    return this.collection.countDocuments(chosenFilter(shopId, filter));
  }
}
