// The demo shop that a first start in development creates. Which shop it is gets recorded, so the development
// pages that act for it (/demo/ signs order data with its code) can never act for a real shop.
import type { Services } from '../services.js';
import type { Webshop } from './store.js';

export async function createDemoShop(services: Pick<Services, 'webshops'>): Promise<Webshop> {
  const shop = await services.webshops.create({ name: 'Demo Webshop', url: 'http://localhost:8080/' });
  await services.webshops.recordDemo(shop.id);
  return shop;
}

/** The recorded demo shop; null when none was created (or it was deleted since). */
export async function findDemoShop(services: Pick<Services, 'webshops'>): Promise<Webshop | null> {
  const shopId = await services.webshops.demoShopId();
  return shopId === null ? null : services.webshops.get(shopId);
}
