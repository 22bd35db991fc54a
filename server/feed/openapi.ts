// The contract of the product review feed (routes.ts), Google's 2.4 feed and its key (google-routes.ts). Their
// answers are XML (feed.ts, google-feed.ts write them in Google's order).
import { z } from 'zod';
import { adminError, credentials, empty, ids, json, operatorErrors, type Endpoint } from '../http/contract.js';

const classicFeed: Endpoint[] = [
  {
    method: 'get',
    path: '/api/1.0/product_reviews.xml',
    family: 'classic',
    summary: 'Product review feed (Google Product Reviews 2.3 layout)',
    query: credentials.extend({
      detailed: z
        .int()
        .meta({ description: '1 adds email, valid, deleted, modified and product external_id' })
        .optional(),
      last_synced: z
        .string()
        .meta({ description: '`Y-m-d H:i:s` (UTC) or ISO 8601 with offset; inclusive' })
        .optional(),
    }),
    answers: {
      200: {
        description: 'the feed, or `<response><status>error</status><message>…</message></response>`',
        schema: z.string(),
        mediaType: 'application/xml',
      },
    },
  },
];

/** The feed's address for Merchant Center, with its key (google-service.ts FeedAccess). */
const feedAccessSchema = z
  .object({
    url: z.string().meta({ description: 'the address to paste into Merchant Center (carries the key)' }),
    key: z.string(),
    last_fetched_at: z
      .string()
      .nullable()
      .meta({ description: 'ISO 8601: the last fetch with the valid key (recorded at most once a minute)' }),
  })
  .meta({ id: 'GoogleFeedAccess' });

const figure = z.object({ count: z.int(), threshold: z.int(), meets: z.boolean() });
/** The dashboard's Google section (google-service.ts GoogleSection, readiness.ts Readiness). */
const googleSectionSchema = feedAccessSchema
  .extend({
    readiness: z.object({
      product_reviews: figure.meta({
        description: 'product reviews in the feed; Google: about 50 for product ratings',
      }),
      products_left_out: z.object({
        without_url: z.int().meta({ description: 'products with reviews left out: no http(s) URL' }),
        without_ids: z.int().meta({ description: 'products in the feed without GTIN, or MPN + brand' }),
        in_feed: z.int(),
      }),
      store_reviews_12_months: z.object({
        threshold: z.int(),
        countries: z.array(
          z.object({
            country: z.string().meta({ description: 'two-letter code, or `unknown`' }),
            reviews: z.int(),
            meets: z.boolean(),
          }),
        ),
      }),
      average_score: z.object({
        products: z.number().nullable().meta({ description: 'of the product reviews in the feed, out of 5' }),
        store: z.number().nullable().meta({ description: 'of the store reviews of the last 12 months, out of 5' }),
        threshold: z.number(),
        meets: z.boolean(),
      }),
      imported_reviews: z.int(),
    }),
    has_imported_reviews: z.boolean().meta({ description: 'imported reviews are never in the feed' }),
  })
  .meta({ id: 'GoogleSection' });

const operator = { family: 'operator', auth: 'operatorToken', params: ids('id') } as const;
const dashboard = { family: 'dashboard', auth: 'dashboardSession', params: ids('shopId') } as const;
const dashboardErrors = {
  401: adminError('no session (code unauthenticated)'),
  403: adminError(
    'Origin or X-CSRF-Token wrong (code csrf), or the role may not do this (code forbidden; action google)',
  ),
  404: adminError('no such shop among the user’s shops'),
};

const googleFeed: Endpoint[] = [
  {
    method: 'get',
    path: '/webshops/{id}/feeds/google-product-reviews.xml',
    family: 'public',
    summary: 'Google product review feed 2.4 (for Merchant Center’s scheduled fetch)',
    description:
      'Complete each time: every published product review with text and a product URL; imported reviews never. ' +
      'Gzip when accepted; ETag and Last-Modified, 304 when unchanged. A wrong or missing key answers as an unknown shop.',
    params: ids('id'),
    query: z.object({ key: z.string().meta({ description: 'the shop’s feed key' }) }),
    answers: {
      200: { description: 'the feed', schema: z.string(), mediaType: 'application/xml' },
      304: empty('unchanged since the ETag or date sent'),
      404: adminError('no such shop, or a wrong or missing key'),
    },
  },
  {
    ...operator,
    method: 'get',
    path: '/admin/api/webshops/{id}/google-feed',
    summary: 'The Google feed’s address, key (created on first need) and last fetch',
    answers: { 200: json(feedAccessSchema), ...operatorErrors },
  },
  {
    ...operator,
    method: 'post',
    path: '/admin/api/webshops/{id}/google-feed/key',
    summary: 'A new Google feed key; the old one stops working at once (audited, never the key)',
    answers: { 200: json(feedAccessSchema), ...operatorErrors },
  },
  {
    ...dashboard,
    method: 'get',
    path: '/dashboard/api/shops/{shopId}/google',
    summary: 'The Google section: the feed’s address, its last fetch and the readiness figures (owners, managers)',
    answers: { 200: json(googleSectionSchema), ...dashboardErrors },
  },
  {
    ...dashboard,
    method: 'post',
    path: '/dashboard/api/shops/{shopId}/google/key',
    summary: 'A new Google feed key; the old one stops working at once (owners, managers; audited)',
    answers: { 200: json(feedAccessSchema), ...dashboardErrors },
  },
];

export const feedEndpoints: Endpoint[] = [...classicFeed, ...googleFeed];
