// The contracts of the operator's photo routes (admin.ts).
import { z } from 'zod';
import { json, operatorErrors, type Endpoint } from '../http/contract.js';
import { photoDecision } from './admin.js';

const photoId = z.object({ id: z.string().meta({ description: 'the photo id' }) });

export const photoEndpoints: Endpoint[] = [
  {
    method: 'get',
    path: '/admin/api/photos/held',
    family: 'operator',
    auth: 'operatorToken',
    summary:
      'Photos held for a look before they are shown (PHOTO_REVIEW=operator), of shop reviews and imported product reviews, oldest first',
    answers: {
      200: json(
        z.object({
          photos: z.array(
            z.object({
              id: z.string(),
              review: z.int().nullable().meta({ description: 'the shop review; null for an imported product review' }),
              product_review: z
                .string()
                .nullable()
                .meta({ description: 'the imported product review (a product-only review of an import); else null' }),
              webshop: z.int(),
              product: z
                .object({ id: z.string(), name: z.string() })
                .nullable()
                .meta({ description: "the review's product (a shop review's first), null when none" }),
              excerpt: z.string().meta({ description: "the start of the review's text (at most 200 characters)" }),
              held_since: z.string().meta({ description: 'ISO 8601' }),
              url: z.string().meta({ description: 'the large photo for the operator (GET /admin/api/photos/{id})' }),
              public_url: z.string().meta({ description: 'where the public sees it once shown' }),
            }),
          ),
        }),
      ),
      ...operatorErrors,
    },
  },
  {
    method: 'get',
    path: '/admin/api/photos/{id}',
    family: 'operator',
    auth: 'operatorToken',
    summary: 'A photo (large WebP) whatever its state, for the operator to look at',
    params: photoId,
    answers: { 200: { description: 'the photo', schema: z.string(), mediaType: 'image/webp' }, ...operatorErrors },
  },
  {
    method: 'post',
    path: '/admin/api/photos/{id}/decision',
    family: 'operator',
    auth: 'operatorToken',
    summary:
      'Show a held photo with its review (shop or imported product review), or remove it (its files are deleted; audited)',
    params: photoId,
    body: { schema: photoDecision },
    answers: { 200: json(z.object({ id: z.string(), state: z.enum(['shown', 'removed']) })), ...operatorErrors },
  },
];
