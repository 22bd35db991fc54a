// Webshops: the merchants using the service. Each has an integer id and a secret API code.
import { randomBytes } from 'node:crypto';
import type { Db, Collection } from '../db/index.js';
import { insertNumbered, isDuplicateKey } from '../db/index.js';
import type { Cache } from '../cache.js';
import { LANGUAGE_NAMES, type Language } from '../languages.js';
import { hostOf } from './rules.js';
import type { Address, ShopLanguage, Webshop } from './model.js';

// The model lives in model.ts, a module of types only, so that a reader of a module that takes a shop does not
// meet the store and the database behind it; re-exported for the modules that still import it from here.
export type { Webshop } from './model.js';

const emptyAddress = (): Address => ({ street: '', housenumber: '', postalcode: '', city: '', country: '' });

/** A new API code: 128 random bits as lowercase hex (clients accept /^[a-z0-9.]+$/). */
const newApiCode = (): string => randomBytes(16).toString('hex');

function defaultLanguages(iso: Language, url: string): ShopLanguage[] {
  return [{ name: LANGUAGE_NAMES[iso], url, iso, all: false, main: true }];
}

type NewWebshop = Pick<Webshop, 'name' | 'url'> &
  Partial<Omit<Webshop, 'id' | 'code' | 'host' | 'created' | 'updated'>>;

/** Which shop the development demo created (a single document, so its look-up is by `_id`). */
interface DemoShopRecord {
  _id: 'demo';
  shopId: number;
}

export class WebshopStore {
  private readonly collection: Collection<Webshop>;
  private readonly demo: Collection<DemoShopRecord>;

  /**
   * `cache`: shops by id (null: none), for authentication on every classic request. A write deletes the shop's
   * entry when it ends, which also keeps a read that ran meanwhile (it may have fetched the document from before the
   * write, e.g. a rotated-away API code) from putting it back.
   */
  constructor(
    private readonly db: Db,
    private readonly cache: Cache<Webshop | null>,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.collection = db.collection<Webshop>('webshops');
    this.demo = db.collection<DemoShopRecord>('demo_shop');
  }

  async ensureIndexes(): Promise<void> {
    await this.collection.createIndex({ id: 1 }, { unique: true, name: 'id_1' });
    await this.collection.createIndex({ host: 1 }, { name: 'host_1' });
  }

  async create(input: NewWebshop): Promise<Webshop> {
    const now = this.now();
    return insertNumbered(this.db, this.collection, 'webshops', (id) => ({
      id,
      code: newApiCode(),
      name: input.name,
      url: input.url,
      host: hostOf(input.url),
      logo: input.logo ?? '',
      address: { ...emptyAddress(), ...input.address },
      languages: input.languages ?? defaultLanguages('en', input.url),
      hero_color: input.hero_color ?? '',
      hero_image: input.hero_image ?? '',
      reply_access: input.reply_access ?? false,
      approved_date: input.approved_date ?? null,
      partner_assurances: input.partner_assurances ?? {},
      sidebar: input.sidebar ?? {},
      require_signed_order_data: input.require_signed_order_data ?? false,
      created: now,
      updated: now,
    }));
  }

  /** A shop by id, from the cache when fresh (see CACHE_TTL_MS); null when there is none. */
  async get(id: number): Promise<Webshop | null> {
    // Every classic request asks: a fresh entry is answered without building a load.
    const cached = this.cache.get(id);
    if (cached !== undefined) return cached;
    // Requests that miss together share one query (the cache's): when the TTL ends under load, every request would
    // send its own.
    const shop = await this.cache.fetch(id, () => this.collection.findOne({ id }, { projection: { _id: 0 } }), {
      bytes: () => 2048,
    });
    return shop ?? null;
  }

  /** A shop as stored now, past the cache: for changes merged into the current settings. */
  async getFresh(id: number): Promise<Webshop | null> {
    return this.collection.findOne({ id }, { projection: { _id: 0 } });
  }

  async update(id: number, changes: Partial<Omit<Webshop, 'id' | 'created'>>): Promise<Webshop | null> {
    const set: Partial<Webshop> = { ...changes, updated: this.now() };
    if (changes.url !== undefined) set.host = hostOf(changes.url);
    let updated: Webshop | null;
    try {
      // No projection here: FerretDB's findAndModify does not support `fields`.
      updated = await this.collection.findOneAndUpdate({ id }, { $set: set }, { returnDocument: 'after' });
    } finally {
      // Reads that started before the write may answer with the old document; later reads do not join them.
      this.cache.delete(id);
    }
    if (!updated) return null;
    const { _id, ...shop } = updated as Webshop & { _id: unknown };
    return shop;
  }

  /** Issues a new API code; the old one stops working at once in this process (and within the TTL elsewhere). */
  async rotateCode(id: number): Promise<Webshop | null> {
    return this.update(id, { code: newApiCode() });
  }

  async findByHost(host: string): Promise<Webshop[]> {
    return this.collection
      .find({ host }, { projection: { _id: 0 } })
      .sort({ id: 1 })
      .limit(50)
      .toArray();
  }

  async count(): Promise<number> {
    return this.collection.countDocuments({});
  }

  /** Records the demo shop; when two processes created one at once, the first record stands. */
  async recordDemo(shopId: number): Promise<void> {
    try {
      await this.demo.updateOne({ _id: 'demo' }, { $setOnInsert: { shopId } }, { upsert: true });
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
    }
  }

  /** The id of the recorded demo shop; null when none was created. */
  async demoShopId(): Promise<number | null> {
    return (await this.demo.findOne({ _id: 'demo' }))?.shopId ?? null;
  }
}
