// GET /api/1.0/product_reviews.xml: the shop's product reviews for syncing into the shop (detailed=1) or for
// Google's product review feed. Errors follow the classic rules in XML: HTTP 200 with
// `<response><status>error</status><message>…</message></response>`.
// GET /webshops/{id}/feeds/google-product-reviews.xml?key=…: Google's product review feed 2.4, for Merchant Center's
// scheduled fetch; a wrong or missing key answers exactly what an unknown shop does (404), so it reveals nothing.
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import type Router from '@koa/router';
import type { Context } from 'koa';
import { z } from 'zod';
import { HttpError } from '../http/errors.js';
import { idParam } from '../http/validate.js';
import { XML_CONTENT_TYPE } from '../http/xml.js';
import type { BuiltFeed } from './google-build.js';
import { classic } from '../http/classic.js';
import { ClassicError } from '../http/errors.js';
import { stringParam } from '../http/params.js';
import { XmlDocument } from '../http/xml.js';
import { findWebshop } from '../webshops/service.js';
import { feedBatches } from './batches.js';
import type { Services } from '../services.js';
import { parseSyncTime } from '../time.js';
import { feedParts } from './feed.js';

/** `detailed`: plugins send 1 (PHP's http_build_query turns true into 1); absent or 0 means the plain feed. */
function detailedParam(value: unknown): boolean {
  const flag = stringParam(value, 'detailed')?.trim().toLowerCase() ?? '';
  if (['', '0', 'false', 'no', 'off'].includes(flag)) return false;
  if (['1', 'true', 'yes', 'on'].includes(flag)) return true;
  throw new ClassicError('The parameter detailed must be 0 or 1.');
}

/** `last_synced`: 'Y-m-d H:i:s' (UTC) or ISO 8601 with an offset; empty means everything. */
function lastSyncedParam(value: unknown): Date | undefined {
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

export function registerFeedRoutes(
  router: Router,
  services: Pick<Services, 'config' | 'reviews' | 'shopLimiter' | 'webshops'>,
): void {
  const { config } = services;
  router.get(
    '/api/1.0/product_reviews.xml',
    classic(services, { empty: {}, xml: true }, async (_ctx, { shop, params }) => {
      const detailed = detailedParam(params.detailed);
      const since = lastSyncedParam(params.last_synced);
      const batches = await feedBatches(services, shop.id, since);
      const parts = feedParts(batches, { shop, brandName: config.brandName, baseUrl: config.baseUrl, detailed });
      return new XmlDocument(Readable.from(parts));
    }),
  );
}

/** The key as Merchant Center sends it back: one value of the length and alphabet we issue, else no key. */
const keyQuery = z.object({ key: z.string().regex(/^[A-Za-z0-9_-]{16,128}$/) });

/** The built feed: gzip as stored when the client takes it, else unzipped as it is sent; 304 when unchanged. */
function sendFeed(ctx: Context, built: BuiltFeed): void {
  ctx.status = 200;
  ctx.type = XML_CONTENT_TYPE;
  // The address carries a credential: no shared cache may keep it; Merchant Center asks again with its validators.
  ctx.set('Cache-Control', 'private, no-cache');
  ctx.set('Vary', 'Accept-Encoding');
  ctx.set('ETag', built.etag);
  ctx.lastModified = built.lastModified;
  if (ctx.fresh) {
    ctx.status = 304;
    return;
  }
  if (ctx.acceptsEncodings('gzip', 'identity') === 'gzip') {
    ctx.set('Content-Encoding', 'gzip');
    ctx.length = built.bytes;
    ctx.body = createReadStream(built.file);
  } else {
    ctx.body = createReadStream(built.file).pipe(createGunzip());
  }
}

/** Google's product review feed 2.4, behind the shop's feed key (feed/key-store.ts). */
export function registerGoogleFeedRoutes(
  router: Router,
  services: Pick<Services, 'feedKeys' | 'googleFeeds' | 'webshops'>,
): void {
  const { feedKeys } = services;
  router.get('/webshops/:id/feeds/google-product-reviews.xml', async (ctx) => {
    const shopId = idParam(ctx.params.id, 'webshop');
    const query = keyQuery.safeParse(ctx.query);
    const key = query.success ? await feedKeys.check(shopId, query.data.key) : null;
    const shop = key ? await findWebshop(services, shopId) : null;
    if (!key || !shop) throw new HttpError(404, 'No such webshop.');
    const built = await services.googleFeeds.current(shop, key);
    await feedKeys.markFetched(shopId, key);
    sendFeed(ctx, built);
  });
}
