// The contract of what the shoppers' embed calls (routes.ts). Bodies are the schemas routes.ts validates with; the
// answers' TypeScript types live with the embed's browser code (embed/shared), which must not load zod, so the two
// answers with many fields are described as objects here.
import { z } from 'zod';
import { adminError, ids, json, type Endpoint } from '../http/contract.js';
import { consentSchema, experienceSchema, popupReviewSchema, verifySchema } from './input.js';

const embed = { family: 'embed', params: ids('id') } as const;
const errors = {
  400: adminError('invalid input; the message names the field'),
  404: adminError('no such shop'),
  429: adminError('rate limited (Retry-After header)'),
};

export const embedEndpoints: Endpoint[] = [
  {
    ...embed,
    method: 'get',
    path: '/embed/{id}/shop.json',
    summary: "The shop's name, languages, score, badges and the embed's settings",
    answers: { 200: json(z.record(z.string(), z.unknown())), ...errors },
  },
  {
    ...embed,
    method: 'get',
    path: '/embed/{id}/reviews.json',
    summary: 'Published reviews, newest first',
    query: z.object({
      offset: z.int().meta({ description: 'default 0' }).optional(),
      limit: z.int().meta({ description: '1–20, default 5' }).optional(),
    }),
    answers: {
      200: json(z.object({ total: z.int(), reviews: z.array(z.record(z.string(), z.unknown())) })),
      ...errors,
    },
  },
  {
    ...embed,
    method: 'post',
    path: '/embed/{id}/order/verify',
    summary: "Check the order data's signature",
    body: { schema: verifySchema },
    answers: { 200: json(z.object({ valid: z.boolean(), recorded: z.boolean() })), ...errors },
  },
  {
    ...embed,
    method: 'post',
    path: '/embed/{id}/consent',
    summary: "Record the shopper's answer to the review request after an order",
    body: { schema: consentSchema },
    answers: {
      201: json(
        z.object({ recorded: z.boolean(), signed: z.boolean(), reviewToken: z.string().optional() }),
        'recorded',
      ),
      ...errors,
    },
  },
  {
    ...embed,
    method: 'post',
    path: '/embed/{id}/reviews',
    summary: 'A review written in the pop-up right after the order (needs the reviewToken of the consent)',
    body: { schema: popupReviewSchema },
    answers: { 201: json(z.object({ status: z.string(), id: z.int() }), 'created'), ...errors },
  },
  {
    ...embed,
    method: 'post',
    path: '/embed/{id}/experiences',
    summary: 'A review without an order: published once the writer confirms it from the e-mail',
    body: { schema: experienceSchema },
    answers: {
      202: json(z.object({ status: z.literal('pending_confirmation') }), 'accepted, e-mail sent'),
      ...errors,
    },
  },
  {
    ...embed,
    method: 'post',
    path: '/embed/{id}/photos',
    summary:
      'Issue 20: one photo for a review about to be sent (JPEG, PNG, WebP or AVIF, ≤ 10 MB, ≤ 40 megapixels); its id goes in the review’s `photos`',
    query: z.object({ lang: z.string().meta({ description: 'the language of the refusal messages' }).optional() }),
    body: {
      schema: z.object({ photo: z.string().meta({ format: 'binary', description: 'the photo file' }) }),
      mediaTypes: ['multipart/form-data'],
    },
    answers: {
      201: json(z.object({ id: z.string() }), 'stored; re-encoded once a review takes it'),
      ...errors,
      400: adminError('not a photo we can read, too large, too many pixels (the message says which, to show as is)'),
      415: adminError('not multipart/form-data'),
      429: adminError('rate limited, or the day’s photos from this address or for this shop are reached'),
    },
  },
];
