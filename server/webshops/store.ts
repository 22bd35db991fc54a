// Webshops: the merchants using the service. Each has an integer id and a secret API code.
import { randomBytes } from 'node:crypto';
import type { Db, Collection } from '../db/index.js';
import { insertNumbered } from '../db/index.js';
import { BoundedCache, type CacheLimits } from '../cache.js';
import { LANGUAGE_NAMES, isLanguage, type Language } from '../languages.js';

export interface Address {
  street: string;
  housenumber: string;
  postalcode: string;
  city: string;
  country: string;
}

export interface ShopLanguage {
  name: string;
  url: string;
  iso: string;
  all: boolean;
  main: boolean;
}

/** The sidebar's dashboard configuration: the `_service_*` globals on a shop's page win over these. */
export interface SidebarSettings {
  sidebar?: boolean;
  position?: 'left' | 'right';
  top?: string;
  theme?: 'dark' | 'light';
  mobile?: string;
  mobile_tab?: 'left' | 'center' | 'right';
  tooltip?: boolean;
  language?: string;
}

export interface Webshop {
  id: number;
  code: string;
  name: string;
  url: string;
  /** The URL's host without `www.` and port, lower case: what fetch_domain.json matches. */
  host: string;
  logo: string;
  address: Address;
  languages: ShopLanguage[];
  hero_color: string;
  hero_image: string;
  reply_access: boolean;
  approved_date: string | null;
  partner_assurances: Record<string, boolean>;
  sidebar: SidebarSettings;
  /**
   * Only signed order data may record consent: unsigned order-data elements show no dialog, unsigned consents are
   * refused, and order_permissions.json ignores unsigned receipts (requiresSignedOrderData).
   */
  require_signed_order_data?: boolean;
  created: Date;
  updated: Date;
}

export const emptyAddress = (): Address => ({ street: '', housenumber: '', postalcode: '', city: '', country: '' });

/** The host that identifies a shop: no scheme, `www.`, port, path or case. */
export function hostOf(url: string): string {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(url) ? url : `http://${url}`;
  try {
    return new URL(withScheme).hostname.toLowerCase().replace(/^www\./, '').replace(/\.$/, '');
  } catch {
    return '';
  }
}

/** A new API code: 128 random bits as lowercase hex (clients accept /^[a-z0-9.]+$/). */
export const newApiCode = (): string => randomBytes(16).toString('hex');

export function mainLanguage(shop: Pick<Webshop, 'languages'>): Language {
  const main = shop.languages.find((l) => l.main) ?? shop.languages[0];
  return main && isLanguage(main.iso) ? main.iso : 'en';
}

/** Shops stored before the setting existed have no value: false, as for new shops (compatibility). */
export function requiresSignedOrderData(shop: Pick<Webshop, 'require_signed_order_data'>): boolean {
  return shop.require_signed_order_data === true;
}

export function enabledLanguages(shop: Pick<Webshop, 'languages'>): Language[] {
  return shop.languages.map((l) => l.iso).filter(isLanguage);
}

export function defaultLanguages(iso: Language, url: string): ShopLanguage[] {
  return [{ name: LANGUAGE_NAMES[iso], url, iso, all: false, main: true }];
}

export type NewWebshop = Pick<Webshop, 'name' | 'url'> & Partial<Omit<Webshop, 'id' | 'code' | 'host' | 'created' | 'updated'>>;

export class WebshopStore {
  readonly collection: Collection<Webshop>;
  private readonly cache: BoundedCache<Webshop | null>;
  private readonly loading = new Map<number, Promise<Webshop | null>>();
  /**
   * Counts the starts and ends of writes. A read caches its answer only when no write began or ended while it ran:
   * otherwise it may have fetched the document from before the write (e.g. a rotated-away API code) and would put
   * it back in the cache after the write cleared it.
   */
  private writes = 0;

  constructor(
    private readonly db: Db,
    cacheLimits: CacheLimits,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.collection = db.collection<Webshop>('webshops');
    this.cache = new BoundedCache(cacheLimits);
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
    const key = String(id);
    const cached = this.cache.get(key);
    if (cached !== undefined) return cached;
    // Requests that miss together share one query: when the TTL ends under load, every request would send its own.
    let loading = this.loading.get(id);
    if (!loading) {
      const writesAtStart = this.writes;
      const query: Promise<Webshop | null> = this.collection
        .findOne({ id }, { projection: { _id: 0 } })
        .then((shop) => {
          if (this.writes === writesAtStart) this.cache.set(key, shop, 2048);
          return shop;
        })
        .finally(() => {
          if (this.loading.get(id) === query) this.loading.delete(id);
        });
      loading = query;
      this.loading.set(id, loading);
    }
    return loading;
  }

  async update(id: number, changes: Partial<Omit<Webshop, 'id' | 'created'>>): Promise<Webshop | null> {
    const set: Partial<Webshop> = { ...changes, updated: this.now() };
    if (changes.url !== undefined) set.host = hostOf(changes.url);
    this.writes++;
    let updated;
    try {
      // No projection here: FerretDB's findAndModify does not support `fields`.
      updated = await this.collection.findOneAndUpdate({ id }, { $set: set }, { returnDocument: 'after' });
    } finally {
      this.writes++;
      this.cache.delete(String(id));
      // Reads that started before the write may answer with the old document; later reads must not join them.
      this.loading.delete(id);
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
    return this.collection.find({ host }, { projection: { _id: 0 } }).sort({ id: 1 }).limit(50).toArray();
  }

  async count(): Promise<number> {
    return this.collection.countDocuments({});
  }
}
