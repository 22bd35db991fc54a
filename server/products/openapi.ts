// The contract of the product surfaces' public endpoints (routes.ts): the in-page block's HTML fragment and the
// product's JSON-LD. Both are read from any site (CORS `*`), answer an ETag (304 on a match) and a short public
// Cache-Control.
import { z } from 'zod';
import { adminError, html, json, type Endpoint } from '../http/contract.js';
import { LANGUAGES } from '../languages.js';
import { SORTS } from '../pages/listing.js';

const product = z.string().meta({ description: "the product's id (order data `id`), else its SKU, else its GTIN" });

const ratingLd = z.object({
  '@type': z.literal('Rating'),
  ratingValue: z.int().meta({ description: '1–5' }),
  bestRating: z.literal(5),
  worstRating: z.literal(1),
});

const ratingPart = {
  aggregateRating: z.object({
    '@type': z.literal('AggregateRating'),
    ratingValue: z.number().meta({ description: '1–5, one decimal' }),
    reviewCount: z.int(),
    bestRating: z.literal(5),
    worstRating: z.literal(1),
  }),
  review: z
    .array(
      z.object({
        '@type': z.literal('Review'),
        author: z.object({ '@type': z.literal('Person'), name: z.string() }),
        datePublished: z.string().meta({ description: 'YYYY-MM-DD' }),
        name: z.string().optional().meta({ description: "the review's title, when it has one" }),
        reviewBody: z.string().optional(),
        reviewRating: ratingLd,
      }),
    )
    .meta({ description: 'up to 10, newest first' }),
};

const productLd = z
  .object({
    '@context': z.literal('https://schema.org'),
    '@type': z.literal('Product'),
    '@id': z.string().optional().meta({ description: "the product's URL, so that it merges with the page's Product" }),
    name: z.string().optional(),
    url: z.string().optional(),
    image: z.string().optional(),
    sku: z.string().optional(),
    gtin: z.string().optional(),
    mpn: z.string().optional(),
    brand: z.object({ '@type': z.literal('Brand'), name: z.string() }).optional(),
    ...ratingPart,
  })
  .meta({ id: 'ProductJsonLd' });

const ids = z.object({ id: z.int() });

export const productEndpoints: Endpoint[] = [
  {
    method: 'get',
    path: '/webshops/{id}/products/reviews.html',
    family: 'public',
    summary: "A product's reviews as an HTML fragment for the shop's product page",
    description:
      'A `<style>` element, then one `<section class="pr">` with `data-count`, `data-average` (1–5), `data-pages` ' +
      'and `data-page`; 10 reviews a page. A product without reviews answers 200 with `<section class="pr ' +
      'pr--empty" data-count="0">`. Paging links and the filter form carry `data-query`. CORS `*`, ETag, ' +
      '`Cache-Control: public, max-age=60`.',
    params: ids,
    query: z.object({
      product,
      lang: z.enum(LANGUAGES).optional().meta({ description: "default: the shop's main language" }),
      theme: z.enum(['light', 'dark']).optional(),
      page: z.int().min(1).optional(),
      sort: z.enum(SORTS).optional(),
      stars: z.string().optional().meta({ description: 'star ratings shown, e.g. `1,2` (or repeated)' }),
      photos: z.literal('1').optional().meta({ description: 'only reviews with photos' }),
    }),
    answers: {
      200: { ...html('The fragment'), mediaType: 'text/html; charset=utf-8' },
      304: { description: 'Not modified (If-None-Match)' },
      400: adminError('A parameter is missing or not valid'),
      404: adminError('No such webshop'),
    },
  },
  {
    method: 'get',
    path: '/webshops/{id}/products/jsonld',
    family: 'public',
    summary: "A product's schema.org Product with its rating and recent reviews (JSON-LD)",
    description:
      'Safe to print inside `<script type="application/ld+json">`: `<`, `>`, `&`, U+2028 and U+2029 are written ' +
      'as `\\uXXXX`; only http(s) URLs are given. `part=rating` answers only `aggregateRating` and `review`, for ' +
      'plugins that merge them into their own Product. CORS `*`, ETag, `Cache-Control: public, max-age=60`.',
    params: ids,
    query: z.object({ product, part: z.literal('rating').optional() }),
    answers: {
      200: { ...json(z.union([productLd, z.object(ratingPart)]), 'The JSON-LD'), mediaType: 'application/ld+json' },
      304: { description: 'Not modified (If-None-Match)' },
      400: adminError('A parameter is missing or not valid'),
      404: adminError('No such webshop, or no reviews of this product'),
    },
  },
];
