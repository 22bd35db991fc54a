// Webhook subscriptions: where a shop wants its review events pushed. The delivery scheduler reads active
// subscriptions by shop and topic; the secret keys the X-Hash signature of every delivery.
import { randomBytes } from 'node:crypto';
import type { Db, Collection } from '../db/index.js';
import { insertNumbered, isDuplicateKey } from '../db/index.js';
import type { ReviewTopic } from '../reviews/model.js';
import type { WebhookSubscription } from './model.js';

export const WEBHOOK_TOPICS = [
  'reviews.created',
  'reviews.updated',
  'reviews.deleted',
] as const satisfies readonly ReviewTopic[];

export type { WebhookSubscription };

type WebhookChanges = Partial<Pick<WebhookSubscription, 'url' | 'topic' | 'is_active'>>;

type NewWebhookSubscription = Pick<WebhookSubscription, 'url' | 'topic' | 'is_active'>;

const newWebhookSecret = (): string => randomBytes(32).toString('hex');

export class WebhookStore {
  private readonly collection: Collection<WebhookSubscription>;

  constructor(
    private readonly db: Db,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.collection = db.collection<WebhookSubscription>('webhook_subscriptions');
  }

  async ensureIndexes(): Promise<void> {
    await this.collection.createIndex({ id: 1 }, { unique: true, name: 'id_1' });
    await this.collection.createIndex({ shopId: 1, created: -1 }, { name: 'shop_created' });
    await this.collection.createIndex({ shopId: 1, topic: 1, is_active: 1 }, { name: 'shop_topic_active' });
  }

  async create(shopId: number, input: NewWebhookSubscription): Promise<WebhookSubscription> {
    const created = this.now();
    const subscription = await insertNumbered(this.db, this.collection, 'webhooks', (id) => ({
      id,
      shopId,
      url: input.url,
      topic: input.topic,
      secret: newWebhookSecret(),
      is_active: input.is_active,
      created,
      disabled_reason: null,
      consecutiveFailures: 0,
    }));
    const { _id, ...clean } = subscription as WebhookSubscription & { _id?: unknown };
    return clean;
  }

  /**
   * Creates a subscription unless the shop has `max` already; null when it has. Counted again after the insert, so
   * concurrent calls cannot together go past `max`: a call that then finds more takes its own subscription back.
   * (Of calls that all find more at once, each does: the shop stays below `max` and they can try again.)
   */
  async createWithin(shopId: number, input: NewWebhookSubscription, max: number): Promise<WebhookSubscription | null> {
    if ((await this.countForShop(shopId)) >= max) return null;
    let created: WebhookSubscription | undefined;
    for (let attempt = 1; !created; attempt++) {
      try {
        created = await this.create(shopId, input);
      } catch (err) {
        // FerretDB's counter is not atomic: a concurrent call can draw the same id and take its subscription back
        // before this one sees it, and insertNumbered cannot tell that duplicate from another. Draw again.
        if (!isDuplicateKey(err) || attempt === 3) throw err;
      }
    }
    if ((await this.countForShop(shopId)) <= max) return created;
    await this.collection.deleteOne({ id: created.id });
    return null;
  }

  /** One page of a shop's subscriptions, newest first, and how many it has in all. */
  async page(shopId: number, offset: number, limit: number): Promise<{ items: WebhookSubscription[]; total: number }> {
    const [items, total] = await Promise.all([
      this.collection
        .find({ shopId }, { projection: { _id: 0 } })
        .sort({ created: -1, id: -1 })
        .skip(offset)
        .limit(limit)
        .toArray(),
      this.collection.countDocuments({ shopId }),
    ]);
    return { items, total };
  }

  async countForShop(shopId: number): Promise<number> {
    return this.collection.countDocuments({ shopId });
  }

  /** The subscriptions that should receive an event of this shop and topic. */
  async active(shopId: number, topic: ReviewTopic): Promise<WebhookSubscription[]> {
    return this.collection
      .find({ shopId, topic, is_active: true }, { projection: { _id: 0 } })
      .sort({ id: 1 })
      .toArray();
  }

  /** Active subscriptions of several shops at once (one query per batch of events). */
  async activeForShops(shopIds: number[]): Promise<WebhookSubscription[]> {
    if (shopIds.length === 0) return [];
    return this.collection
      .find({ shopId: { $in: shopIds }, is_active: true }, { projection: { _id: 0 } })
      .sort({ id: 1 })
      .toArray();
  }

  async byIds(ids: number[]): Promise<WebhookSubscription[]> {
    if (ids.length === 0) return [];
    return this.collection.find({ id: { $in: ids } }, { projection: { _id: 0 } }).toArray();
  }

  /** A subscription of this shop; null for another shop's, so ids cannot be probed across shops. */
  async getForShop(shopId: number, id: number): Promise<WebhookSubscription | null> {
    return this.collection.findOne({ id, shopId }, { projection: { _id: 0 } });
  }

  /** Applies a shop's changes. Switching a subscription on again clears the reason and count of a switch-off. */
  async update(shopId: number, id: number, changes: WebhookChanges): Promise<WebhookSubscription | null> {
    const set: Partial<WebhookSubscription> = { ...changes };
    if (changes.is_active !== undefined) Object.assign(set, { disabled_reason: null, consecutiveFailures: 0 });
    const result = await this.collection.updateOne({ id, shopId }, { $set: set });
    return result.matchedCount ? this.getForShop(shopId, id) : null;
  }

  async remove(shopId: number, id: number): Promise<boolean> {
    return (await this.collection.deleteOne({ id, shopId })).deletedCount === 1;
  }

  /** A successful delivery ends a run of failures. */
  async recordSuccess(id: number): Promise<void> {
    await this.collection.updateOne({ id, consecutiveFailures: { $ne: 0 } }, { $set: { consecutiveFailures: 0 } });
  }

  /**
   * An event's delivery failed for good. After `disableAfter` such events in a row (0: never) the subscription is
   * switched off with the reason; returns true when this call switched it off.
   */
  async recordFailure(id: number, disableAfter: number, lastError: string): Promise<boolean> {
    await this.collection.updateOne({ id }, { $inc: { consecutiveFailures: 1 } });
    if (disableAfter === 0) return false;
    const reason = `Switched off after ${disableAfter} events in a row could not be delivered (last: ${lastError}).`;
    const result = await this.collection.updateOne(
      { id, is_active: true, consecutiveFailures: { $gte: disableAfter } },
      { $set: { is_active: false, disabled_reason: reason } },
    );
    return result.modifiedCount === 1;
  }
}
