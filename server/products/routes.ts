// The product surfaces' public endpoints (issue 22), read from any site (CORS `*`: only what the shop page shows):
// - GET /webshops/{id}/products/reviews.html?product=…: the product's reviews as an HTML fragment (fragment.tsx),
//   for the loader's product block; 200 with an empty state for a product without reviews;
// - GET /webshops/{id}/products/jsonld?product=…[&part=rating]: its schema.org Product (jsonld.ts); 404 without reviews.
// `product=` names the product by its id, else SKU, else GTIN (rules.ts ProductLookup). Both answer with an ETag
// (304 on a match) and a short public Cache-Control.
import { createHash } from 'node:crypto';
import type Router from '@koa/router';
import type { Context } from 'koa';
import { z } from 'zod';
import { HttpError } from '../http/errors.js';
import { idParam, validate } from '../http/validate.js';
import { LANGUAGES } from '../languages.js';
import { readListing } from '../pages/listing.js';
import type { Services } from '../services.js';
import { mainLanguage } from '../webshops/rules.js';
import { renderFragment, THEMES, type FragmentNav } from './fragment.js';
import { productJsonLd, ratingPart, scriptSafeJson } from './jsonld.js';
import { aggregate } from './rules.js';
import { productView } from './view.js';
import { requireWebshop } from '../webshops/service.js';

/** Short: a new review shows within a minute, while a product page's visitors share one answer. */
const CACHE_CONTROL = 'public, max-age=60';

/** The first value of a query parameter (a repeated one is read as its first). */
const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

const productParam = z.string().trim().min(1).max(200);

const fragmentQuery = z.object({
  product: productParam,
  lang: z.enum(LANGUAGES).optional(),
  theme: z.enum(THEMES).default('light'),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
});

const jsonLdQuery = z.object({
  product: productParam,
  part: z.literal('rating').optional(),
});

/** Answers `body` with its ETag, or 304 when the client holds it already. */
function sendCached(ctx: Context, type: string, body: string): void {
  ctx.set('Access-Control-Allow-Origin', '*');
  ctx.set('Cache-Control', CACHE_CONTROL);
  ctx.set('ETag', `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`);
  ctx.type = type;
  ctx.status = 200;
  if (ctx.fresh) {
    ctx.status = 304;
    return;
  }
  ctx.body = body;
}

/** The fragment's own address, for links that work without JavaScript. */
function fragmentNav(
  baseUrl: string,
  shopId: number,
  fixed: { product: string; lang: string; theme: string },
): FragmentNav {
  const action = `${baseUrl}/webshops/${shopId}/products/reviews.html`;
  const base = `${action}?${new URLSearchParams(fixed).toString()}`;
  return { action, fixed, href: (query) => (query ? `${base}&${query}` : base) };
}

export function registerProductRoutes(
  router: Router,
  services: Pick<Services, 'config' | 'helpful' | 'products' | 'webshops'>,
): void {
  const { config, products } = services;

  async function shopOf(ctx: Context) {
    return requireWebshop(services, idParam(ctx.params.id, 'webshop'));
  }

  router.get('/webshops/:id/products/reviews.html', async (ctx) => {
    const shop = await shopOf(ctx);
    const q = ctx.query;
    const input = validate(
      fragmentQuery,
      { product: first(q.product), lang: first(q.lang), theme: first(q.theme), page: first(q.page) },
      400,
    );
    const lang = input.lang ?? mainLanguage(shop);
    const view = await productView(services, {
      shop,
      product: input.product,
      lang,
      theme: input.theme,
      page: input.page,
      listing: readListing(q),
      nav: fragmentNav(config.baseUrl, shop.id, { product: input.product, lang, theme: input.theme }),
      votes: 'button',
    });
    sendCached(ctx, 'text/html; charset=utf-8', renderFragment(view));
  });

  router.get('/webshops/:id/products/jsonld', async (ctx) => {
    const shop = await shopOf(ctx);
    const input = validate(jsonLdQuery, { product: first(ctx.query.product), part: first(ctx.query.part) }, 400);
    const product = await products.find(shop.id, input.product);
    if (!product?.reviews.length) throw new HttpError(404, 'No reviews of this product.');
    const figures = aggregate({ reviews: product.reviews, policy: services.config.scorePolicy });
    const body = input.part === 'rating' ? ratingPart(product, figures) : productJsonLd(product, figures);
    sendCached(ctx, 'application/ld+json', scriptSafeJson(body));
  });
}
