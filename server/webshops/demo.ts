// The demo shop that a first start in development creates. Which shop it is gets recorded, so the development
// pages that act for it (/demo/ signs order data with its code) can never act for a real shop.
import { isDuplicateKey } from '../db/index.js';
import type { Services } from '../services.js';
import type { Webshop } from './store.js';

interface DemoShopRecord {
  _id: 'demo';
  shopId: number;
}

const records = (services: Pick<Services, 'db'>) => services.db.collection<DemoShopRecord>('demo_shop');

export async function createDemoShop(services: Pick<Services, 'webshops' | 'db'>): Promise<Webshop> {
  const shop = await services.webshops.create({ name: 'Demo Webshop', url: 'http://localhost:8080/' });
  // Two processes starting at once may each create one: the first record stands.
  try {
    await records(services).updateOne({ _id: 'demo' }, { $setOnInsert: { shopId: shop.id } }, { upsert: true });
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
  }
  return shop;
}

/** The recorded demo shop; null when none was created (or it was deleted since). */
export async function findDemoShop(services: Pick<Services, 'webshops' | 'db'>): Promise<Webshop | null> {
  const record = await records(services).findOne({ _id: 'demo' });
  return record ? services.webshops.get(record.shopId) : null;
}
