// The OpenAPI 3.1 description of the REST API (the spec's endpoints and our extensions) and the operator API,
// served at /api/openapi.json. openapi.it.test.ts fails when a routed path is neither here nor in NOT_IN_DOCUMENT.
// Request bodies and query parameters that the code validates with zod are generated from those very schemas
// (z.toJSONSchema), so the document cannot drift from what is accepted. The rest is written by hand: responses
// (built by functions, not parsed) and the classic endpoints' inputs, which are read by hand for compatibility
// (see docs/decisions.md, "OpenAPI document").
import type { z } from 'zod';
import { adminError, bool, fromZod, int, json, obj, queryFromZod, ref, str, type Schema } from '../http/openapi.js';
import type { Config } from '../config.js';
import { accountPaths, ACCOUNT_SECURITY_SCHEMES } from '../accounts/openapi.js';
import { dashboardPagePaths } from '../dashboard/openapi-pages.js';
import { photoDecision } from '../photos/admin.js';
import { dashboardReviewPaths } from '../dashboard/openapi-reviews.js';
import { auditQuerySchema } from '../audit/admin.js';
import { erasureQuery } from '../customers/admin.js';
import { historyQuery } from '../invitations/admin.js';
import { issueSchema } from '../domains/admin.js';
import { consentSchema, experienceSchema, popupReviewSchema, verifySchema } from '../embed/input.js';
import { decisionSchema, GROUNDS, listQuerySchema as reportListQuery, REPORT_STATUSES } from '../moderation/schema.js';
import { textSchema as policyTextInput } from '../policy/admin.js';
import { POLICY_LANGUAGES } from '../policy/strings.js';
import { replyRequestSchema } from '../replies/reply.js';
import { importSchema as reviewImport, patchSchema as reviewPatch } from '../reviews/admin.js';
import { patchSchema as webhookPatch } from '../webhooks/routes.js';
import { subscribeSchema } from '../webhooks/routes.js';
import { createSchema as webshopCreate, patchSchema as webshopPatch } from '../webshops/admin.js';

const credentials = [
  { name: 'id', in: 'query', required: true, schema: int('webshop id'), description: 'webshop id' },
  { name: 'code', in: 'query', required: true, schema: str(), description: 'personal API code' },
];
const query = (name: string, schema: Schema, description: string, required = false) => ({
  name,
  in: 'query',
  required,
  schema,
  description,
});
const pathId = (name = 'id') => ({ name, in: 'path', required: true, schema: int() });

/** A classic endpoint: HTTP 200 for success and application errors alike. */
const classicResponses = (success: Schema) => ({
  '200': json({ oneOf: [success, ref('ClassicError')] }, 'success, or an application error in the same envelope'),
  '413': json(ref('ClassicError'), 'body too large'),
  '429': json(ref('ClassicError'), 'rate limited (Retry-After header)'),
});
const classicSuccess = (message: string, extra: Record<string, Schema>) =>
  obj({ status: { const: 'success' }, message: { const: message }, ...extra });

const admin = { security: [{ operatorToken: [] }], tags: ['operator'] };
const adminErrors = {
  '401': adminError('no or wrong operator token'),
  '404': adminError('not found'),
  '422': adminError('invalid input; the message names the field'),
};

/** A report about a review (server/moderation/routes.ts reportView). */
const reportSchema = obj({
  id: str(),
  review_id: int(),
  webshop_id: int(),
  ground: { enum: [...GROUNDS] },
  text: str('the reporter’s details; never e-mailed to anyone'),
  email: { type: ['string', 'null'] },
  created: str('ISO 8601'),
  status: { enum: [...REPORT_STATUSES] },
  decision: {
    type: ['object', 'null'],
    description: 'action, ground, note, at, by (and redactedChars for redactions)',
  },
});

/** The review policy page's languages and service-wide texts (server/policy). */
const policyLang = {
  name: 'lang',
  in: 'path',
  required: true,
  schema: { type: 'string', enum: [...POLICY_LANGUAGES] },
};
const policyText = obj({
  lang: str(),
  custom: bool('false while the defaults are in force'),
  checks: str(),
  publication: str(),
  reporting: str(),
});

const embed = { tags: ['embed'] };
const embedBody = (schema: z.ZodType) => ({
  required: true,
  content: { 'application/json': { schema: fromZod(schema) } },
});
const embedErrors = {
  '400': adminError('invalid input; the message names the field'),
  '404': adminError('no such shop'),
  '429': adminError('rate limited (Retry-After header)'),
};

export function openApiDocument(config: Config) {
  const subRatings = obj({ shippingtime: int(), customerservice: int(), pricequality: int(), aftersale: int() });
  const subAverages = obj({
    shippingtime: { type: 'number' },
    customerservice: { type: 'number' },
    pricequality: { type: 'number' },
    aftersale: { type: 'number' },
  });
  return {
    openapi: '3.1.0',
    info: {
      title: `${config.brandName} review collection API`,
      version: '1.0.0',
      description:
        'Classic endpoints answer application errors with HTTP 200 and `{"status":"error","message":…}`. ' +
        'Timestamps are `YYYY-MM-DD HH:MM:SS` in UTC. Webhook deliveries carry `X-Hash`, the lowercase hex ' +
        'HMAC-SHA512 of the raw body keyed with the subscription secret.',
    },
    servers: [{ url: config.baseUrl }],
    tags: [
      { name: 'classic' },
      { name: 'webhooks' },
      { name: 'operator' },
      { name: 'public' },
      {
        name: 'embed',
        description: "what the shoppers' embed calls from shops' pages (CORS: any origin, no credentials)",
      },
      {
        name: 'dashboard',
        description:
          "the merchant dashboard's API: same origin only, a session cookie, Origin and X-CSRF-Token on writes",
      },
    ],
    paths: {
      '/api/1.0/invitations.json': {
        post: {
          tags: ['classic'],
          summary: 'Add invitation',
          parameters: [
            ...credentials,
            query('max_invitations_per_email', int(), 'at most this many invitations per address'),
          ],
          requestBody: {
            content: {
              'application/x-www-form-urlencoded': { schema: ref('InvitationInput') },
              'multipart/form-data': { schema: ref('InvitationInput') },
            },
          },
          responses: classicResponses(obj({ status: { const: 'success' }, message: str() })),
        },
        get: {
          tags: ['classic'],
          summary: 'List invitations',
          parameters: [
            ...credentials,
            query('offset', int(), 'newest invitations skipped (default 0)'),
            query('order', int(), 'maximum returned, 1–100 (default 10)'),
            query('limit', int(), 'synonym of order'),
          ],
          responses: classicResponses(
            classicSuccess('Invitations successfully retrieved!', {
              invitations: { type: 'array', items: ref('Invitation') },
              total: int(),
            }),
          ),
        },
      },
      '/api/1.0/ratings.json': {
        get: {
          tags: ['classic'],
          summary: 'List ratings (newest first)',
          parameters: [
            ...credentials,
            query('language', str(), 'ISO 639-1 (other forms are mapped)'),
            query('offset', int(), 'default 0'),
            query('limit', int(), '1–100, default 10'),
          ],
          responses: classicResponses(
            classicSuccess('Ratings successfully retrieved!', {
              ratings: { type: 'array', items: ref('Rating') },
              total: int(),
            }),
          ),
        },
      },
      '/api/1.0/ratings_summary.json': {
        get: {
          tags: ['classic'],
          summary: 'Ratings summary',
          parameters: credentials,
          responses: classicResponses(
            classicSuccess('Ratings summary successfully retrieved!', {
              data: obj({
                amount: int(),
                rating_average: { type: 'number', description: '1–10' },
                ratings_average: subAverages,
              }),
            }),
          ),
        },
      },
      '/api/1.0/webshop.json': {
        get: {
          tags: ['classic'],
          summary: 'Webshop details',
          parameters: credentials,
          responses: classicResponses(
            classicSuccess('Webshop details successfully retrieved!', { data: ref('WebshopDetails') }),
          ),
        },
      },
      '/api/1.0/product_reviews.xml': {
        get: {
          tags: ['classic'],
          summary: 'Product review feed (Google Product Reviews 2.3 layout)',
          parameters: [
            ...credentials,
            query('detailed', int(), '1 adds email, valid, deleted, modified and product external_id'),
            query('last_synced', str(), '`Y-m-d H:i:s` (UTC) or ISO 8601 with offset; inclusive'),
          ],
          responses: {
            '200': {
              description: 'the feed, or `<response><status>error</status><message>…</message></response>`',
              content: { 'application/xml': { schema: str() } },
            },
          },
        },
      },
      '/api/2.0/order_permissions.json': {
        get: {
          tags: ['classic'],
          summary: 'Check order consent (Privacy First)',
          parameters: [...credentials, query('orderNumber', str(), 'order number', true)],
          responses: {
            '200': json(obj({ has_consent: bool() })),
            '400': json(ref('ClassicError'), 'missing variables'),
            '401': json(ref('ClassicError'), 'wrong credentials'),
          },
        },
      },
      '/api/1.0/review_replies.json': {
        post: {
          tags: ['classic'],
          summary: 'Add review reply (for shops granted reply access)',
          parameters: credentials,
          requestBody: {
            required: true,
            content: {
              'application/json': { schema: fromZod(replyRequestSchema) },
            },
          },
          responses: {
            '200': json(obj({ status: { const: 'success' }, message: { const: 'Reply successfully added' } })),
            '400': json(ref('ClassicError'), 'bad request'),
            '401': json(ref('ClassicError'), 'wrong credentials or no reply access'),
            '404': json(ref('ClassicError'), 'no such review in this shop'),
          },
        },
      },
      '/api/1.0/webhook.json': {
        post: {
          tags: ['webhooks'],
          summary: 'Subscribe webhook',
          parameters: credentials,
          requestBody: {
            required: true,
            content: { 'application/json': { schema: fromZod(subscribeSchema) } },
          },
          responses: {
            '200': json(
              classicSuccess('Webhook subscription created', {
                data: obj({ webhook_id: int(), url: str(), topic: ref('Topic'), secret: str() }),
              }),
            ),
            '400': json(
              ref('ClassicError'),
              'bad request (also: a refused URL, or the shop has as many subscriptions as allowed: 100 unless the operator set another limit)',
            ),
            '401': json(ref('ClassicError'), '`Unauthorized`'),
          },
        },
      },
      '/api/1.0/webhooks.json': {
        get: {
          tags: ['webhooks'],
          summary: 'List webhook subscriptions (20 per page, newest first; X-Total header)',
          parameters: [...credentials, query('page', int(), 'default 1')],
          responses: {
            '200': json({ type: 'array', items: ref('WebhookSubscription') }),
            '401': json(ref('ClassicError'), '`Unauthorized`'),
          },
        },
      },
      '/api/1.0/webhooks/{id}.json': {
        get: {
          tags: ['webhooks'],
          summary: 'One subscription, with why the service switched it off (if it did)',
          parameters: [...credentials, pathId()],
          responses: {
            '200': json(obj({ status: { const: 'success' }, message: str(), data: ref('WebhookState') })),
            '401': json(ref('ClassicError'), '`Unauthorized`'),
            '404': json(ref('ClassicError'), 'no such subscription'),
          },
        },
        patch: {
          tags: ['webhooks'],
          summary: 'Change a subscription (e.g. is_active back to true)',
          parameters: [...credentials, pathId()],
          requestBody: { content: { 'application/json': { schema: fromZod(webhookPatch) } } },
          responses: {
            '200': json(obj({ status: { const: 'success' }, message: str(), data: ref('WebhookState') })),
            '400': json(ref('ClassicError'), 'bad request (also: a refused URL)'),
            '401': json(ref('ClassicError'), '`Unauthorized`'),
            '404': json(ref('ClassicError'), 'no such subscription'),
          },
        },
        delete: {
          tags: ['webhooks'],
          summary: 'Delete a subscription',
          parameters: [...credentials, pathId()],
          responses: {
            '200': json(obj({ status: { const: 'success' }, message: str() })),
            '401': json(ref('ClassicError'), '`Unauthorized`'),
            '404': json(ref('ClassicError'), 'no such subscription'),
          },
        },
      },
      '/api/1.0/webhooks/{id}/deliveries.json': {
        get: {
          tags: ['webhooks'],
          summary: 'Delivery log of a subscription (newest first, paged; X-Total header)',
          parameters: [...credentials, pathId(), query('page', int(), 'default 1')],
          responses: {
            '200': json({ type: 'array', items: ref('Delivery') }),
            '401': json(ref('ClassicError'), '`Unauthorized`'),
            '404': json(ref('ClassicError'), 'no such subscription'),
          },
        },
      },
      '/api/1.0/webhooks/{id}/redeliver.json': {
        post: {
          tags: ['webhooks'],
          summary: 'Send an event to the subscription again',
          parameters: [...credentials, pathId(), query('event_id', str(), 'the X-Event-Id to send again', true)],
          responses: {
            '200': json(obj({ status: { const: 'success' }, message: str() })),
            '400': json(ref('ClassicError'), 'bad request'),
            '401': json(ref('ClassicError'), '`Unauthorized`'),
            '404': json(ref('ClassicError'), 'no such subscription or event'),
          },
        },
      },
      '/webshops/fetch_domain.json': {
        get: {
          tags: ['public'],
          summary: 'Retrieve shops by domain (operator-issued token)',
          parameters: [
            query('token', str(), 'operator-issued token', true),
            query('url', str(), 'URL whose host is matched (scheme, www., port, path and case ignored)', true),
            query('approved_date', str(), 'true/1 to include approved_date'),
            query('partner_assurances', str(), 'true/1 to include partner_assurances'),
          ],
          responses: {
            '200': json({ type: 'array', items: ref('DomainRecord') }),
            '400': adminError('missing url'),
            '401': adminError('missing or invalid token'),
          },
        },
      },
      '/webshops/rich_snippet': {
        get: {
          tags: ['public'],
          summary: 'Rich snippet HTML (AggregateRating) for plugins',
          parameters: [query('id', int(), 'webshop id', true), query('lang', str(), 'language')],
          responses: {
            '200': json({
              oneOf: [
                obj({ result: { const: 'ok' }, content: str() }),
                obj({ result: { const: 'error' }, error: str() }),
              ],
            }),
          },
        },
      },
      '/healthz': {
        get: {
          tags: ['public'],
          summary: 'Health: 200 when the database answers',
          responses: {
            '200': json(obj({ status: { const: 'ok' } })),
            '503': json(obj({ status: str() }), 'database unavailable'),
          },
        },
      },
      '/api/openapi.json': {
        get: { tags: ['public'], summary: 'This document', responses: { '200': json({ type: 'object' }) } },
      },
      '/embed/{id}/shop.json': {
        get: {
          ...embed,
          summary: "The shop's name, languages, score, badges and the embed's settings",
          parameters: [pathId()],
          responses: { '200': json({ type: 'object' }), ...embedErrors },
        },
      },
      '/embed/{id}/reviews.json': {
        get: {
          ...embed,
          summary: 'Published reviews, newest first',
          parameters: [pathId(), query('offset', int(), 'default 0'), query('limit', int(), '1–20, default 5')],
          responses: {
            '200': json(obj({ total: int(), reviews: { type: 'array', items: { type: 'object' } } })),
            ...embedErrors,
          },
        },
      },
      '/embed/{id}/order/verify': {
        post: {
          ...embed,
          summary: "Check the order data's signature",
          parameters: [pathId()],
          requestBody: embedBody(verifySchema),
          responses: { '200': json(obj({ valid: bool(), recorded: bool() })), ...embedErrors },
        },
      },
      '/embed/{id}/consent': {
        post: {
          ...embed,
          summary: "Record the shopper's answer to the review request after an order",
          parameters: [pathId()],
          requestBody: embedBody(consentSchema),
          responses: {
            '201': json(
              obj({ recorded: bool(), signed: bool(), reviewToken: str() }, ['recorded', 'signed']),
              'recorded',
            ),
            ...embedErrors,
          },
        },
      },
      '/embed/{id}/reviews': {
        post: {
          ...embed,
          summary: 'A review written in the pop-up right after the order (needs the reviewToken of the consent)',
          parameters: [pathId()],
          requestBody: embedBody(popupReviewSchema),
          responses: { '201': json(obj({ status: str(), id: int() }), 'created'), ...embedErrors },
        },
      },
      '/embed/{id}/experiences': {
        post: {
          ...embed,
          summary: 'A review without an order: published once the writer confirms it from the e-mail',
          parameters: [pathId()],
          requestBody: embedBody(experienceSchema),
          responses: {
            '202': json(obj({ status: { const: 'pending_confirmation' } }), 'accepted, e-mail sent'),
            ...embedErrors,
          },
        },
      },
      '/admin/api/webshops': {
        post: {
          ...admin,
          summary: 'Create a webshop (audited)',
          requestBody: { required: true, content: { 'application/json': { schema: fromZod(webshopCreate) } } },
          responses: { '201': json(ref('AdminWebshop'), 'created, with id and code'), ...adminErrors },
        },
      },
      '/admin/api/webshops/{id}': {
        get: {
          ...admin,
          summary: 'Read a webshop',
          parameters: [pathId()],
          responses: { '200': json(ref('AdminWebshop')), ...adminErrors },
        },
        patch: {
          ...admin,
          summary: 'Change stored settings (audited: values before → after, texts only as changed with their lengths)',
          parameters: [pathId()],
          requestBody: { required: true, content: { 'application/json': { schema: ref('WebshopSettings') } } },
          responses: { '200': json(ref('AdminWebshop')), ...adminErrors },
        },
      },
      '/admin/api/webshops/{id}/code': {
        post: {
          ...admin,
          summary: 'Rotate the API code (the old one stops working at once; audited, never the code)',
          parameters: [pathId()],
          responses: { '200': json(obj({ id: int(), code: str() })), ...adminErrors },
        },
      },
      '/admin/api/webshops/{id}/reviews': {
        post: {
          ...admin,
          summary: 'Import a review (audited, without the name, address or text)',
          parameters: [pathId()],
          requestBody: { required: true, content: { 'application/json': { schema: ref('ReviewImport') } } },
          responses: { '201': json(obj({ id: int() }), 'created'), ...adminErrors },
        },
      },
      '/admin/api/reviews/{id}': {
        get: {
          ...admin,
          summary: 'Read a review with its moderation state',
          parameters: [pathId()],
          responses: { '200': json({ type: 'object' }), ...adminErrors },
        },
        patch: {
          ...admin,
          summary:
            'Moderate a review (audited: scores and flags before → after, texts only as changed with their lengths)',
          parameters: [pathId()],
          requestBody: {
            required: true,
            content: {
              'application/json': { schema: fromZod(reviewPatch) },
            },
          },
          responses: { '200': json({ type: 'object' }), ...adminErrors },
        },
        delete: {
          ...admin,
          summary: 'Soft-delete a review (kept in the product feed as deleted; audited)',
          parameters: [pathId()],
          responses: { '204': { description: 'deleted' }, ...adminErrors },
        },
      },
      '/admin/api/photos/held': {
        get: {
          ...admin,
          summary: 'Photos held for a look before they are shown (PHOTO_REVIEW=operator), oldest first',
          responses: { '200': json({ type: 'object' }), ...adminErrors },
        },
      },
      '/admin/api/photos/{id}': {
        get: {
          ...admin,
          summary: 'A photo (large WebP) whatever its state, for the operator to look at',
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
          responses: { '200': { description: 'image/webp' }, ...adminErrors },
        },
      },
      '/admin/api/photos/{id}/decision': {
        post: {
          ...admin,
          summary: 'Show a held photo with its review, or remove it (its files are deleted; audited)',
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
          requestBody: { required: true, content: { 'application/json': { schema: fromZod(photoDecision) } } },
          responses: { '200': json({ type: 'object' }), ...adminErrors },
        },
      },
      '/admin/api/policy-text/{lang}': {
        get: {
          ...admin,
          summary: "The review policy page's service-wide texts in a language (the operator's, or the defaults)",
          parameters: [policyLang],
          responses: { '200': json(policyText), ...adminErrors },
        },
        put: {
          ...admin,
          summary:
            "Replace the review policy page's service-wide texts in a language (plain text; blank lines make paragraphs; audited)",
          parameters: [policyLang],
          requestBody: { required: true, content: { 'application/json': { schema: fromZod(policyTextInput) } } },
          responses: { '200': json(policyText), ...adminErrors },
        },
        delete: {
          ...admin,
          summary: 'Back to the default texts of the review policy page in a language (audited)',
          parameters: [policyLang],
          responses: { '204': { description: 'reset' }, ...adminErrors },
        },
      },
      '/admin/api/audit': {
        get: {
          ...admin,
          summary:
            'The audit trail (moderation decisions, reports, writers’ deletions, operator and merchant actions), newest first; `before` pages back',
          parameters: queryFromZod(auditQuerySchema),
          responses: {
            '200': json(
              obj({
                entries: {
                  type: 'array',
                  items: obj({
                    id: str(),
                    at: str('ISO 8601'),
                    webshop_id: { type: ['integer', 'null'] },
                    actor: obj({ kind: { enum: ['operator', 'user', 'writer', 'system'] }, id: str() }, ['kind']),
                    action: str('e.g. report.removed, review.deleted_by_writer'),
                    target: { type: ['string', 'null'] },
                    details: { type: 'object' },
                  }),
                },
              }),
            ),
            '400': adminError('invalid query parameter'),
            '401': adminError('no or wrong operator token'),
          },
        },
      },
      '/admin/api/reports': {
        get: {
          ...admin,
          summary: 'The report queue: reports about reviews from the public report form, oldest first',
          parameters: queryFromZod(reportListQuery),
          responses: {
            '200': json(
              obj({
                reports: { type: 'array', items: reportSchema },
                next_after: {
                  type: ['string', 'null'],
                  description: 'pass as `after` for the next page; null on the last',
                },
              }),
            ),
            '400': adminError('invalid query parameter'),
            '401': adminError('no or wrong operator token'),
          },
        },
      },
      '/admin/api/reports/{id}/decision': {
        post: {
          ...admin,
          summary:
            'Decide on an open report: keep the review, remove it (soft delete; the writer is e-mailed the ground) or redact a passage (every occurrence in the comment, product texts and reply) and keep it',
          parameters: [{ name: 'id', in: 'path', required: true, schema: str('report id') }],
          requestBody: { required: true, content: { 'application/json': { schema: fromZod(decisionSchema) } } },
          responses: {
            '200': json(
              obj({
                report: reportSchema,
                review: { type: ['object', 'null'], properties: { id: int(), deleted: bool(), version: int() } },
              }),
            ),
            '409': adminError('the report was decided already, or the review was deleted (only keep is possible)'),
            ...adminErrors,
          },
        },
      },
      '/admin/api/tokens': {
        post: {
          ...admin,
          summary: 'Issue a token for fetch_domain.json (audited, never the token)',
          requestBody: { content: { 'application/json': { schema: fromZod(issueSchema) } } },
          responses: { '201': json(obj({ token: str() }), 'created'), '401': adminError('no or wrong operator token') },
        },
      },
      '/admin/api/tokens/{token}': {
        delete: {
          ...admin,
          summary: 'Revoke a token (audited, never the token)',
          parameters: [{ name: 'token', in: 'path', required: true, schema: str() }],
          responses: {
            '204': { description: 'revoked' },
            '401': adminError('no or wrong operator token'),
            '404': adminError('unknown token'),
          },
        },
      },
      '/admin/api/webshops/{id}/invitations': {
        get: {
          ...admin,
          summary: "A shop's invitations to an address and/or for an order, each with its history (e-mail, reminder)",
          parameters: [{ name: 'id', in: 'path', required: true, schema: int() }, ...queryFromZod(historyQuery)],
          responses: {
            '200': json(
              obj({
                invitations: {
                  type: 'array',
                  items: obj({
                    id: str(),
                    email: str(),
                    order: str(),
                    language: str(),
                    created: str('ISO 8601'),
                    scheduled: str('ISO 8601'),
                    history: {
                      type: 'array',
                      items: obj(
                        {
                          event: {
                            type: 'string',
                            enum: [
                              'queued',
                              'sent',
                              'failed',
                              'not_sent',
                              'reminder_due',
                              'reminder_sent',
                              'reminder_skipped',
                              'reminder_failed',
                            ],
                          },
                          at: str('ISO 8601'),
                          message_id: str(),
                          reason: str(),
                        },
                        ['event', 'at'],
                      ),
                    },
                  }),
                },
              }),
            ),
            ...adminErrors,
          },
        },
      },
      '/admin/api/customers': {
        delete: {
          ...admin,
          summary: "Erase a customer's personal data (GDPR; the counts are audited, never the address)",
          parameters: queryFromZod(erasureQuery),
          responses: {
            '200': json(
              obj({
                reviews_anonymised: int(),
                invitations_deleted: int(),
                consents_deleted: int(),
                popup_tokens_deleted: int(),
                webhook_deliveries_deleted: int(),
              }),
            ),
            ...adminErrors,
          },
        },
      },
      // The dashboard's sign-in, sessions and teams, and the operator's team routes (server/accounts).
      ...accountPaths(),
      // The dashboard's invitations, widget, integration, webhooks and audit trail (server/dashboard).
      ...dashboardPagePaths(),
      // The dashboard's overview and reviews (server/dashboard/overview.ts, reviews.ts).
      ...dashboardReviewPaths(),
    },
    components: {
      securitySchemes: {
        operatorToken: { type: 'http', scheme: 'bearer', description: 'ADMIN_TOKEN' },
        ...ACCOUNT_SECURITY_SCHEMES,
      },
      schemas: {
        ClassicError: obj({ status: { const: 'error' }, message: str() }),
        AdminError: obj({ error: obj({ code: str(), message: str() }) }),
        Topic: { type: 'string', enum: ['reviews.created', 'reviews.updated', 'reviews.deleted'] },
        InvitationInput: obj(
          {
            email: str(),
            order: str(),
            language: str('ISO 639-1 (other forms are mapped)'),
            delay: int('days'),
            customer_name: str(),
            phone_numbers: { type: 'array', items: str(), description: 'accepted and discarded' },
            order_total: str('accepted and discarded'),
            order_data: str('JSON: {"products":[{"id","name","url","image_url","sku","gtin"}]}'),
            client: str(),
            platform_version: str(),
            plugin_version: str(),
            max_invitations_per_email: int(),
          },
          ['email'],
        ),
        Invitation: obj({
          email: str(),
          order: str(),
          delay: int(),
          datetimes: obj({ created: str(), scheduled: str(), sent: { oneOf: [str(), { const: false }] } }),
        }),
        Rating: obj({
          id: int(),
          name: str(),
          email: str(),
          rating: int('1–5'),
          ratings: subRatings,
          comment: { type: ['string', 'null'] },
          date: str('YYYY-MM-DD'),
          country: str(),
          created: str(),
          read: bool(),
          quarantine: bool(),
          reply: { type: ['string', 'null'] },
          reply_date: { type: ['string', 'null'] },
          origin: {
            type: 'string',
            enum: ['verified_order', 'email_confirmed', 'imported'],
            description: 'how the review was checked',
          },
          incentivised: bool(),
          imported_from: { type: ['string', 'null'], description: 'imports: the source platform' },
          original_date: { type: ['string', 'null'], description: 'imports: ISO 8601 date on the source platform' },
        }),
        WebshopDetails: obj({
          name: str(),
          address: obj({ street: str(), housenumber: str(), postalcode: str(), city: str(), country: str() }),
          logo: str(),
          languages: { type: 'array', items: obj({ name: str(), url: str(), iso: str(), all: bool(), main: bool() }) },
        }),
        WebhookSubscription: obj({ id: int(), topic: ref('Topic'), url: str(), secret: str(), is_active: bool() }),
        WebhookState: obj({
          id: int(),
          topic: ref('Topic'),
          url: str(),
          secret: str(),
          is_active: bool(),
          disabled_reason: { type: ['string', 'null'], description: 'set when the service switched it off' },
        }),
        Delivery: {
          ...obj({
            time: str('YYYY-MM-DD HH:MM:SS (UTC)'),
            topic: ref('Topic'),
            event_id: str('the X-Event-Id'),
            attempt: int('1 for the first attempt of this event'),
            http_status: { type: ['integer', 'null'], description: 'null when there was no HTTP answer' },
            error: { type: ['string', 'null'], description: 'network error, timeout or refused target' },
            duration_ms: int(),
            redelivery: bool('asked for with redeliver.json'),
          }),
          description: 'one delivery attempt',
        },
        DomainRecord: obj(
          {
            id: int(),
            name: str(),
            url: str(),
            rating: { type: 'number' },
            rating_count: int(),
            icon: str(),
            page: str(),
            hero_color: str(),
            hero_image: str(),
            created: str(),
            approved_date: str(),
            partner_assurances: { type: 'object', additionalProperties: bool() },
          },
          ['id', 'name', 'url', 'rating', 'rating_count', 'icon', 'page', 'hero_color', 'hero_image', 'created'],
        ),
        WebshopSettings: fromZod(webshopPatch),
        AdminWebshop: { type: 'object', description: 'every stored setting, with id and code' },
        ReviewImport: fromZod(reviewImport),
      },
    },
  };
}
