// GET /api/1.0/product_reviews.xml: the shop's product reviews for syncing into the shop (detailed=1) or for
// Google's product review feed. Errors follow the classic rules in XML: HTTP 200 with
// `<response><status>error</status><message>…</message></response>`.
import type Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import { authenticate, MESSAGES, queryFields, type ClassicDeps } from '../http/classic.js';
import { ClassicError, HttpError, sendError, type Envelope } from '../http/errors.js';
import type { Fields } from '../http/body.js';
import { stringParam } from '../http/params.js';
import { XML_CONTENT_TYPE } from '../http/xml.js';
import type { Review, ReviewStore } from '../reviews/store.js';
import type { Services } from '../services.js';
import { parseSyncTime } from '../time.js';
import type { Webshop } from '../webshops/store.js';
import { renderFeed } from './feed.js';

const XML_ENVELOPE: Envelope = { style: 'xml' };

/** classic() for an XML endpoint: same authentication and per-shop limit; the handler returns the document. */
export function xmlClassic(
  deps: ClassicDeps,
  handler: (ctx: Context, req: { shop: Webshop; params: Fields }) => Promise<string>,
): Middleware {
  return async (ctx) => {
    ctx.state.envelope = XML_ENVELOPE;
    const params = queryFields(ctx);
    const auth = await authenticate(deps.webshops, params);
    if (!auth.ok) {
      sendError(ctx, 200, auth.reason === 'missing' ? MESSAGES.missing : MESSAGES.wrongCredentials);
      return;
    }
    const wait = deps.shopLimiter.hit(`shop:${auth.shop.id}`);
    if (wait > 0) throw new HttpError(429, MESSAGES.tooMany, 'too_many_requests', { 'Retry-After': String(wait) });
    try {
      ctx.body = await handler(ctx, { shop: auth.shop, params });
      ctx.set('Content-Type', XML_CONTENT_TYPE);
    } catch (err) {
      if (err instanceof ClassicError) sendError(ctx, 200, err.message);
      else throw err;
    }
  };
}

/** `detailed`: plugins send 1 (PHP's http_build_query turns true into 1); absent or 0 means the plain feed. */
export function detailedParam(value: unknown): boolean {
  const flag = stringParam(value, 'detailed')?.trim().toLowerCase() ?? '';
  if (['', '0', 'false', 'no', 'off'].includes(flag)) return false;
  if (['1', 'true', 'yes', 'on'].includes(flag)) return true;
  throw new ClassicError('The parameter detailed must be 0 or 1.');
}

/** `last_synced`: 'Y-m-d H:i:s' (UTC) or ISO 8601 with an offset; empty means everything. */
export function lastSyncedParam(value: unknown): Date | undefined {
  const text = stringParam(value, 'last_synced')?.trim() ?? '';
  if (!text) return undefined;
  const date = parseSyncTime(text);
  if (!date) {
    throw new ClassicError(
      'The parameter last_synced must be a date and time such as 2024-11-03 07:00:00 (UTC) or 2024-11-03T08:00:00+01:00.',
    );
  }
  return date;
}

/** The shop's reviews with products changed at or after `since` (inclusive: a client sends back the newest it saw). */
export async function feedReviews(reviews: ReviewStore, shopId: number, since: Date | undefined): Promise<Review[]> {
  const filter = since ? { shopId, modified: { $gte: since } } : { shopId };
  const docs = await reviews.collection.find(filter, { projection: { _id: 0 } }).sort({ modified: -1, id: -1 }).toArray();
  return docs.filter((r) => Array.isArray(r.products) && r.products.length > 0);
}

export function registerFeedRoutes(router: Router, services: Services): void {
  const { config } = services;
  router.get(
    '/api/1.0/product_reviews.xml',
    xmlClassic(services, async (_ctx, { shop, params }) => {
      const detailed = detailedParam(params.detailed);
      const since = lastSyncedParam(params.last_synced);
      const reviews = await feedReviews(services.reviews, shop.id, since);
      return renderFeed(reviews, { shop, brandName: config.brandName, baseUrl: config.baseUrl, detailed });
    }),
  );
}
