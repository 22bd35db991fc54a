// The contract of the product review feed (routes.ts). Its answer is XML (feed.ts writes it in Google's order).
import { z } from 'zod';
import { credentials, type Endpoint } from '../http/contract.js';

export const feedEndpoints: Endpoint[] = [
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
