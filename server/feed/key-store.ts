// The per-shop key of the Google product review feed (`?key=` in the address Merchant Center fetches), and when the
// feed was last fetched with it. `google_feed_keys`: one document per shop under `_id` = the shop's id, so every
// read is a keyed look-up (no scan on FerretDB). It is read on every fetch, never cached: a rotated key stops
// working at once in every process (docs/decisions/caching.md: credentials are never served stale).
import { randomBytes } from 'node:crypto';
import type { Collection, Db, Filter } from '../db/index.js';
import { isDuplicateKey } from '../db/index.js';
import { safeEqual } from '../http/credentials.js';

interface FeedKeyRecord {
  _id: number;
  key: string;
  /** Random and fixed for the shop's record: names its built feed files, so that databases never share one. */
  files: string;
  created: Date;
  rotated: Date | null;
  lastFetched: Date | null;
}

export interface FeedKey {
  key: string;
  files: string;
  lastFetched: Date | null;
}

/** A new key: 192 random bits, URL-safe. */
const newKey = (): string => randomBytes(24).toString('base64url');

/** "Last fetched" is written at most this often per shop, whatever the fetch rate. */
const FETCH_MARK_MS = 60_000;

export class FeedKeyStore {
  private readonly collection: Collection<FeedKeyRecord>;

  constructor(
    db: Db,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.collection = db.collection<FeedKeyRecord>('google_feed_keys');
  }

  private byShop = (shopId: number) => ({ _id: shopId }) as Filter<FeedKeyRecord>;

  /** The shop's key as stored now; null before it was first needed. */
  async find(shopId: number): Promise<FeedKey | null> {
    return this.collection.findOne(this.byShop(shopId));
  }

  /** The shop's key, created on first need. */
  async keyOf(shopId: number): Promise<FeedKey> {
    const found = await this.find(shopId);
    if (found) return found;
    const record: FeedKeyRecord = {
      _id: shopId,
      key: newKey(),
      files: randomBytes(6).toString('hex'),
      created: this.now(),
      rotated: null,
      lastFetched: null,
    };
    try {
      await this.collection.insertOne(record);
      return record;
    } catch (err) {
      // Another request created it first: theirs is the key.
      if (!isDuplicateKey(err)) throw err;
      const theirs = await this.find(shopId);
      if (!theirs) throw err;
      return theirs;
    }
  }

  /** A new key; the old one stops working at once (every fetch reads the stored key). */
  async rotate(shopId: number): Promise<FeedKey> {
    await this.keyOf(shopId);
    await this.collection.updateOne(this.byShop(shopId), { $set: { key: newKey(), rotated: this.now() } });
    return (await this.find(shopId))!;
  }

  /**
   * The shop's key record when `given` is its key (compared in constant time), else null. A shop without a key has
   * none that could match.
   */
  async check(shopId: number, given: string): Promise<FeedKey | null> {
    const found = await this.find(shopId);
    return found && safeEqual(given, found.key) ? found : null;
  }

  /**
   * Records a fetch with the valid key, at most once a minute per shop: the filter lets only the first write of each
   * minute through, in any process.
   */
  async markFetched(shopId: number, seen: FeedKey): Promise<void> {
    const at = this.now();
    if (seen.lastFetched && at.getTime() - seen.lastFetched.getTime() < FETCH_MARK_MS) return;
    await this.collection.updateOne(
      {
        _id: shopId,
        $or: [{ lastFetched: null }, { lastFetched: { $lt: new Date(at.getTime() - FETCH_MARK_MS) } }],
      } as Filter<FeedKeyRecord>,
      { $set: { lastFetched: at } },
    );
  }
}
