// GET /api/1.0/webshop.json: the shop's public details, every field always present.
import type Router from '@koa/router';
import { classic } from '../http/classic.js';
import type { Services } from '../services.js';
import type { Webshop } from './store.js';
import type { webshopDetails as webshopDetailsSchema } from './openapi.js';
import type { z } from 'zod';
import { JsonText, memoJson } from '../http/json-text.js';

function webshopDetails(shop: Webshop): z.infer<typeof webshopDetailsSchema> {
  return {
    name: shop.name,
    address: {
      street: shop.address.street,
      housenumber: shop.address.housenumber,
      postalcode: shop.address.postalcode,
      city: shop.address.city,
      country: shop.address.country,
    },
    logo: shop.logo,
    languages: shop.languages.map((l) => ({ name: l.name, url: l.url, iso: l.iso, all: l.all, main: l.main })),
  };
}

export function registerWebshopRoutes(router: Router, services: Pick<Services, 'shopLimiter' | 'webshops'>): void {
  router.get(
    '/api/1.0/webshop.json',
    // The cached shop object is replaced when the shop changes, and its text with it.
    classic(
      services,
      { empty: { data: [] } },
      async (_ctx, { shop }) =>
        new JsonText(
          memoJson(shop, () => ({
            status: 'success',
            message: 'Webshop details successfully retrieved!',
            data: webshopDetails(shop),
          })),
        ),
    ),
  );
}
