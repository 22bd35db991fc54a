// The OpenAPI entries of the dashboard's reviews and overview routes (reviews.ts, overview.ts), spread into
// server/openapi/document.ts. Query parameters and JSON bodies come from the schemas that validate them.
import type { z } from 'zod';
import { adminError, bool, fromZod, int, json, obj, queryFromZod, str, type Schema } from '../http/openapi.js';
import { GROUNDS } from '../moderation/schema.js';
import { readBody, replyBody, replyEditBody, reportBody, reviewListQuery } from './reviews.js';
import { REVIEW_STATUSES } from './review-view.js';

/** The paths of the dashboard's reviews and overview routes. */
export function dashboardReviewPaths() {
  const dashboard = { tags: ['dashboard'], security: [{ dashboardSession: [] }] };
  const shopId = { name: 'shopId', in: 'path', required: true, schema: int() };
  const reviewId = { name: 'reviewId', in: 'path', required: true, schema: int() };
  const errors = {
    '400': adminError('invalid input (code `invalid`); the message names the field'),
    '401': adminError('no session (code `unauthenticated`)'),
    '403': adminError('the role may not do this (`forbidden`), or a change without Origin/CSRF token (`csrf`)'),
    '404': adminError('no such shop for this user, or no such review in the shop'),
  };
  const nullable = (schema: Schema): Schema => ({ oneOf: [schema, { type: 'null' }] });
  const subScores = obj({ shippingtime: int(), customerservice: int(), pricequality: int(), aftersale: int() });
  const item = obj({
    id: int(),
    name: str(),
    rating: int('1–5'),
    ratings: subScores,
    comment: { type: ['string', 'null'] },
    language: str(),
    country: str(),
    order: str(),
    created: str('ISO 8601'),
    modified: str('ISO 8601'),
    status: { type: 'string', enum: [...REVIEW_STATUSES] },
    origin: { type: 'string', enum: ['verified_order', 'email_confirmed', 'imported'] },
    incentivised: bool(),
    imported_from: { type: ['string', 'null'] },
    read: bool(),
    reply: nullable(obj({ text: str(), date: str('ISO 8601'), notify: bool() })),
  });
  const body = (schema: z.ZodType) => ({
    required: true,
    content: { 'application/json': { schema: fromZod(schema) } },
  });
  const number = { type: 'number' };
  return {
    '/dashboard/api/shops/{shopId}/overview': {
      get: {
        ...dashboard,
        summary:
          "The shop's overview: score out of 10 and count (published reviews, as ratings_summary.json), the last 12 months, the 1–5 distribution, sub-score averages, the share answered",
        parameters: [shopId],
        responses: {
          '200': json(
            obj({
              score: nullable(number),
              count: int(),
              months: {
                type: 'array',
                items: obj({ month: str('YYYY-MM (UTC)'), score: nullable(number), count: int() }),
                description: '12, oldest first',
              },
              distribution: obj({ 1: int(), 2: int(), 3: int(), 4: int(), 5: int() }),
              sub_scores: obj({
                shippingtime: nullable(number),
                customerservice: nullable(number),
                pricequality: nullable(number),
                aftersale: nullable(number),
              }),
              answered_share: { type: 'number', description: '0–1' },
            }),
          ),
          ...errors,
        },
      },
    },
    '/dashboard/api/shops/{shopId}/reviews': {
      get: {
        ...dashboard,
        summary:
          "The shop's reviews in every status, newest first, filtered; `q` is a case-insensitive plain substring of the comment or the name (never a pattern). No e-mail addresses.",
        parameters: [shopId, ...queryFromZod(reviewListQuery)],
        responses: {
          '200': json(obj({ items: { type: 'array', items: item }, total: int(), page: int(), page_size: int() })),
          ...errors,
        },
      },
    },
    '/dashboard/api/shops/{shopId}/reviews/{reviewId}/reply': {
      post: {
        ...dashboard,
        summary:
          'Reply (or replace the reply), as POST /api/1.0/review_replies.json; `notify` e-mails the writer (not for the role support: 403 ' +
          '`forbidden`), at most once a day per review: within a day of the last e-mail it goes at the day’s end, with the latest text. Audited.',
        parameters: [shopId, reviewId],
        requestBody: body(replyBody),
        responses: { '200': json(item, 'the review as listed'), ...errors },
      },
      patch: {
        ...dashboard,
        summary: "Correct the reply's text (a notification not yet sent goes out with it). Audited.",
        parameters: [shopId, reviewId],
        requestBody: body(replyEditBody),
        responses: {
          '200': json(item, 'the review as listed'),
          '409': adminError('the review has no reply (code `no_reply`)'),
          ...errors,
        },
      },
      delete: {
        ...dashboard,
        summary: 'Remove the reply. Audited.',
        parameters: [shopId, reviewId],
        responses: { '200': json(item, 'the review as listed'), ...errors },
      },
    },
    '/dashboard/api/shops/{shopId}/reviews/{reviewId}/read': {
      post: {
        ...dashboard,
        summary: 'Mark read or unread (inbox bookkeeping: no webhook event, no e-mail)',
        parameters: [shopId, reviewId],
        requestBody: body(readBody),
        responses: { '200': json(item, 'the review as listed'), ...errors },
      },
    },
    '/dashboard/api/shops/{shopId}/reviews/{reviewId}/report': {
      post: {
        ...dashboard,
        summary:
          "Report the review to the operator's moderation queue, the user as reporter. Audited; 30 per shop an hour.",
        parameters: [shopId, reviewId],
        requestBody: body(reportBody),
        responses: {
          '201': json(
            obj({
              report: obj({
                id: str(),
                review_id: int(),
                ground: { enum: [...GROUNDS] },
                status: { const: 'open' },
                created: str('ISO 8601'),
              }),
            }),
            'filed',
          ),
          '429': adminError('too many reports from the shop this hour (Retry-After)'),
          ...errors,
        },
      },
    },
  };
}
