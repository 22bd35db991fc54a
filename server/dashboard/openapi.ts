// The contract of the dashboard's shop routes (overview.ts, reviews.ts, invitations.ts, widget.ts, integration.ts,
// audit.ts). Query parameters and bodies are the schemas those routes validate with; answers are contract.ts's.
import { z } from 'zod';
import { adminError as error, empty, ids, json, type Endpoint } from '../http/contract.js';
import { patchSchema as webhookPatchSchema, subscribeSchema } from '../webhooks/routes.js';
import { sidebarSchema } from '../webshops/admin.js';
import {
  apiCodeSchema,
  csvResultSchema,
  dashboardAuditEntrySchema,
  dashboardDeliverySchema,
  dashboardInvitationSchema,
  dashboardReviewSchema,
  dashboardWebhookSchema,
  filedReportSchema,
  integrationSchema,
  integrationSettingsSchema,
  overviewSchema,
  page,
  reminderSettingsSchema,
  widgetSchema,
} from './contract.js';
import { pageQuery } from './input.js';
import { integrationPatchSchema, redeliverSchema } from './integration.js';
import { CSV_LIMITS, invitationListQuery, invitationSettingsSchema } from './invitations.js';
import { readBody, replyBody, replyEditBody, reportBody, reviewListQuery } from './reviews.js';

const dashboard = { family: 'dashboard', auth: 'dashboardSession' } as const;
const shop = { ...dashboard, params: ids('shopId') } as const;
const review = { ...dashboard, params: ids('shopId', 'reviewId') } as const;
const webhook = { ...dashboard, params: ids('shopId', 'webhookId') } as const;

const reviewErrors = {
  400: error('invalid input (code `invalid`); the message names the field'),
  401: error('no session (code `unauthenticated`)'),
  403: error('the role may not do this (`forbidden`), or a change without Origin/CSRF token (`csrf`)'),
  404: error('no such shop for this user, or no such review in the shop'),
};
const reads = (action: string) => ({
  400: error('invalid: the message names the parameter'),
  401: error('no session (code unauthenticated)'),
  403: error(`the role may not do this (code forbidden; action ${action})`),
  404: error('no such shop among the user’s shops'),
});
const writes = (action: string) => ({
  ...reads(action),
  403: error(
    `Origin or X-CSRF-Token wrong (code csrf), or the role may not do this (code forbidden; action ${action})`,
  ),
});
const listedReview = json(dashboardReviewSchema, 'the review as listed');
const megabytes = CSV_LIMITS.bytes / 1024 / 1024;
const rows = CSV_LIMITS.rows.toLocaleString('en');

export const dashboardEndpoints: Endpoint[] = [
  {
    ...shop,
    method: 'get',
    path: '/dashboard/api/shops/{shopId}/overview',
    summary:
      "The shop's overview: score out of 10 and count (published reviews, as ratings_summary.json), the last 12 months, the 1–5 distribution, sub-score averages, the share answered",
    answers: { 200: json(overviewSchema), ...reviewErrors },
  },
  {
    ...shop,
    method: 'get',
    path: '/dashboard/api/shops/{shopId}/reviews',
    summary:
      "The shop's reviews in every status, newest first, filtered; `q` is a case-insensitive plain substring of the comment or the name (never a pattern). No e-mail addresses.",
    query: reviewListQuery,
    answers: { 200: json(page(dashboardReviewSchema)), ...reviewErrors },
  },
  {
    ...review,
    method: 'post',
    path: '/dashboard/api/shops/{shopId}/reviews/{reviewId}/reply',
    summary:
      'Reply (or replace the reply), as POST /api/1.0/review_replies.json; `notify` e-mails the writer (not for the role support: 403 ' +
      '`forbidden`), at most once a day per review: within a day of the last e-mail it goes at the day’s end, with the latest text. Audited.',
    body: { schema: replyBody },
    answers: { 200: listedReview, ...reviewErrors },
  },
  {
    ...review,
    method: 'patch',
    path: '/dashboard/api/shops/{shopId}/reviews/{reviewId}/reply',
    summary: "Correct the reply's text (a notification not yet sent goes out with it). Audited.",
    body: { schema: replyEditBody },
    answers: { 200: listedReview, 409: error('the review has no reply (code `no_reply`)'), ...reviewErrors },
  },
  {
    ...review,
    method: 'delete',
    path: '/dashboard/api/shops/{shopId}/reviews/{reviewId}/reply',
    summary: 'Remove the reply. Audited.',
    answers: { 200: listedReview, ...reviewErrors },
  },
  {
    ...review,
    method: 'post',
    path: '/dashboard/api/shops/{shopId}/reviews/{reviewId}/read',
    summary: 'Mark read or unread (inbox bookkeeping: no webhook event, no e-mail)',
    body: { schema: readBody },
    answers: { 200: listedReview, ...reviewErrors },
  },
  {
    ...review,
    method: 'post',
    path: '/dashboard/api/shops/{shopId}/reviews/{reviewId}/report',
    summary:
      "Report the review to the operator's moderation queue, the user as reporter. Audited; 30 per shop an hour.",
    body: { schema: reportBody },
    answers: {
      201: json(filedReportSchema, 'filed'),
      429: error('too many reports from the shop this hour (Retry-After)'),
      ...reviewErrors,
    },
  },
  {
    ...shop,
    method: 'get',
    path: '/dashboard/api/shops/{shopId}/invitations',
    summary:
      'The shop’s invitations, newest first, with state and reason; q finds text in the address or order (managers, owners)',
    query: invitationListQuery,
    answers: { 200: json(page(dashboardInvitationSchema)), ...reads('invite') },
  },
  {
    ...shop,
    method: 'post',
    path: '/dashboard/api/shops/{shopId}/invitations/csv',
    summary: 'Bulk invitations: the CSV file is the body; every row goes through Add invitation (managers, owners)',
    description:
      'Header row naming the columns email, order, name, language, delay (email required; any order and case). `,` or `;`, ' +
      `UTF-8 with or without BOM, CRLF or LF, RFC 4180 quotes. At most ${rows} rows and ` +
      `${megabytes} MB. The file is read and checked to its end before any row is queued: a file that cannot be taken ` +
      'as a whole (over a limit, not UTF-8, no usable header, broken off) queues nothing; bad rows are skipped and named. Rows with an ' +
      'address and order invited before are not queued again.',
    body: { schema: z.string(), mediaTypes: ['text/csv'] },
    answers: {
      200: json(csvResultSchema),
      ...writes('invite'),
      400: error(
        'invalid: the file cannot be read (no header naming email, not UTF-8, empty, broken off); nothing was queued',
      ),
      413: error(`payload_too_large: over ${megabytes} MB or ${rows} rows; nothing was queued`),
      415: error('unsupported_media_type: a form or JSON instead of the file'),
    },
  },
  {
    ...shop,
    method: 'get',
    path: '/dashboard/api/shops/{shopId}/invitations/settings',
    summary:
      'Days after the invitation e-mail to send one reminder when its link was not used; 0: none (managers, owners)',
    answers: { 200: json(reminderSettingsSchema), ...reads('invite') },
  },
  {
    ...shop,
    method: 'patch',
    path: '/dashboard/api/shops/{shopId}/invitations/settings',
    summary: 'Change reminder_days (audited)',
    body: { schema: invitationSettingsSchema },
    answers: { 200: json(reminderSettingsSchema), ...writes('invite') },
  },
  {
    ...shop,
    method: 'get',
    path: '/dashboard/api/shops/{shopId}/widget',
    summary: 'The sidebar settings, the snippets to paste and the configurator’s address (managers, owners)',
    answers: { 200: json(widgetSchema), ...reads('widget') },
  },
  {
    ...shop,
    method: 'patch',
    path: '/dashboard/api/shops/{shopId}/widget',
    summary: 'Change sidebar settings (audited)',
    body: { schema: sidebarSchema },
    answers: { 200: json(widgetSchema), ...writes('widget') },
  },
  {
    ...shop,
    method: 'get',
    path: '/dashboard/api/shops/{shopId}/integration',
    summary:
      'Shop id, require_signed_order_data and the plugins that called Add invitation in the last 90 days (every role)',
    answers: { 200: json(integrationSchema), ...reads('read') },
  },
  {
    ...shop,
    method: 'patch',
    path: '/dashboard/api/shops/{shopId}/integration',
    summary: 'Switch require_signed_order_data (owners; audited)',
    body: { schema: integrationPatchSchema },
    answers: { 200: json(integrationSettingsSchema), ...writes('integration') },
  },
  {
    ...shop,
    method: 'post',
    path: '/dashboard/api/shops/{shopId}/integration/code/reveal',
    summary: 'Show the API code (owners; audited)',
    answers: { 200: json(apiCodeSchema), ...writes('integration') },
  },
  {
    ...shop,
    method: 'post',
    path: '/dashboard/api/shops/{shopId}/integration/code/rotate',
    summary: 'A new API code; the old one stops working at once (owners; audited)',
    answers: { 200: json(apiCodeSchema), ...writes('integration') },
  },
  {
    ...shop,
    method: 'get',
    path: '/dashboard/api/shops/{shopId}/webhooks',
    summary: 'The shop’s webhook subscriptions with their secrets, newest first (owners)',
    query: pageQuery,
    answers: { 200: json(page(dashboardWebhookSchema)), ...reads('integration') },
  },
  {
    ...shop,
    method: 'post',
    path: '/dashboard/api/shops/{shopId}/webhooks',
    summary:
      'Subscribe (the classic API’s rules: https, no private addresses, at most 100 per shop unless the operator set another limit; audited)',
    body: { schema: subscribeSchema },
    answers: {
      201: json(dashboardWebhookSchema, 'created'),
      ...writes('integration'),
      400: error('invalid (the message names the field), or limit_reached'),
    },
  },
  {
    ...webhook,
    method: 'patch',
    path: '/dashboard/api/shops/{shopId}/webhooks/{webhookId}',
    summary: 'Change url, topic or is_active; on again clears an automatic switch-off (audited)',
    body: { schema: webhookPatchSchema },
    answers: { 200: json(dashboardWebhookSchema), ...writes('integration') },
  },
  {
    ...webhook,
    method: 'delete',
    path: '/dashboard/api/shops/{shopId}/webhooks/{webhookId}',
    summary: 'Delete with its pending deliveries and log (audited)',
    answers: { 204: empty('deleted'), ...writes('integration') },
  },
  {
    ...webhook,
    method: 'get',
    path: '/dashboard/api/shops/{shopId}/webhooks/{webhookId}/deliveries',
    summary: 'The delivery log, newest first',
    query: pageQuery,
    answers: { 200: json(page(dashboardDeliverySchema)), ...reads('integration') },
  },
  {
    ...webhook,
    method: 'post',
    path: '/dashboard/api/shops/{shopId}/webhooks/{webhookId}/redeliver',
    summary: 'Send an event again now (audited)',
    body: { schema: redeliverSchema },
    answers: {
      202: json(z.object({ status: z.literal('queued') }), 'queued'),
      ...writes('integration'),
      400: error('invalid event_id, or the webhook is switched off'),
      404: error('no such webhook, or the event was not sent to it'),
    },
  },
  {
    ...shop,
    method: 'get',
    path: '/dashboard/api/shops/{shopId}/audit',
    summary: 'The shop’s audit trail (merchant actions, moderation, operator), newest first (owners)',
    query: pageQuery,
    answers: { 200: json(page(dashboardAuditEntrySchema)), ...reads('team') },
  },
];
