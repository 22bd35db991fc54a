// The OpenAPI entries of the dashboard's invitations, widget, integration, webhook and audit routes
// (invitations.ts, widget.ts, integration.ts, audit.ts), spread into server/openapi/document.ts. Query parameters
// and JSON bodies come from the schemas that validate them.
import {
  adminError as error,
  body,
  bool,
  int,
  json,
  nullable,
  obj,
  pathParam,
  queryFromZod,
  str,
  type Schema,
} from '../http/openapi.js';
import { patchSchema as webhookPatchSchema, subscribeSchema } from '../webhooks/routes.js';
import { sidebarSchema } from '../webshops/admin.js';
import { pageQuery } from './input.js';
import { integrationPatchSchema, redeliverSchema } from './integration.js';
import { CSV_LIMITS, invitationListQuery, invitationSettingsSchema } from './invitations.js';

const list = (item: Schema) =>
  obj({ items: { type: 'array', items: item }, total: int(), page: int(), page_size: int() });

const dashboard = { tags: ['dashboard'], security: [{ dashboardSession: [] }] };
const shop = [pathParam('shopId')];
const webhook = [pathParam('shopId'), pathParam('webhookId')];
const reads = (action: string) => ({
  '400': error('invalid: the message names the parameter'),
  '401': error('no session (code unauthenticated)'),
  '403': error(`the role may not do this (code forbidden; action ${action})`),
  '404': error('no such shop among the user’s shops'),
});
const writes = (action: string) => ({
  ...reads(action),
  '403': error(
    `Origin or X-CSRF-Token wrong (code csrf), or the role may not do this (code forbidden; action ${action})`,
  ),
});

const invitation = obj({
  id: str(),
  email: str(),
  order: str(),
  name: str(),
  language: str(),
  state: { type: 'string', enum: ['queued', 'sent', 'failed', 'not_sent'] },
  reason: nullable(
    'string',
    "failed: the mail server's answer; not_sent: unsubscribed; queued: the last error before a retry",
  ),
  created: str('ISO 8601'),
  send_at: str('ISO 8601: when it is (or was) due'),
  sent_at: nullable('string', 'ISO 8601'),
  reminder_sent_at: nullable('string', 'ISO 8601'),
  client: nullable('string', 'the plugin that called Add invitation; dashboard-csv for uploads'),
  platform_version: nullable('string'),
  plugin_version: nullable('string'),
});
const csvResult = obj({
  rows: int('data rows read, blank ones not counted'),
  queued: int(),
  skipped_duplicates: int('address and order invited before: not queued again'),
  skipped_reviewed: int('the customer already wrote a review for the order'),
  errors: {
    type: 'array',
    items: obj({ row: int('as a spreadsheet numbers it: the header is row 1'), message: str() }),
    description: `at most ${CSV_LIMITS.errorsListed}`,
  },
  error_count: int('every row error, also past the listed ones'),
});
const settings = {
  type: 'object',
  description: 'the sidebar settings, every key (embed/shared/settings.ts)',
  additionalProperties: true,
};
const widget = obj({
  settings,
  defaults: settings,
  snippets: obj({
    sidebar_script: str(),
    order_data_element: str(),
    php_signature: str('names the API code $apiCode; never contains it'),
  }),
  configurator_url: str(),
  preview_url: str("a sample page running the shop's real sidebar; page globals in its query override the settings"),
  global_prefix: str("the page globals' prefix, `_<brand>_`: `<prefix>sidebar_position=right`"),
});
const subscription = obj({
  id: int(),
  url: str(),
  topic: { $ref: '#/components/schemas/Topic' },
  is_active: bool(),
  secret: str('keys the X-Hash of every delivery'),
  disabled_reason: nullable('string', 'set when the service switched it off'),
  created: str('ISO 8601'),
});
const delivery = obj({
  time: str('ISO 8601'),
  topic: str(),
  event_id: str('the X-Event-Id'),
  attempt: int(),
  http_status: nullable('integer'),
  error: nullable('string'),
  duration_ms: int(),
  redelivery: bool(),
});
const integration = obj({ shop_id: int(), require_signed_order_data: bool() });
const code = obj({ code: str('the API code') });

export function dashboardPagePaths(): Record<string, Schema> {
  return {
    '/dashboard/api/shops/{shopId}/invitations': {
      get: {
        ...dashboard,
        summary:
          'The shop’s invitations, newest first, with state and reason; q finds text in the address or order (managers, owners)',
        parameters: [...shop, ...queryFromZod(invitationListQuery)],
        responses: { '200': json(list(invitation)), ...reads('invite') },
      },
    },
    '/dashboard/api/shops/{shopId}/invitations/csv': {
      post: {
        ...dashboard,
        summary: 'Bulk invitations: the CSV file is the body; every row goes through Add invitation (managers, owners)',
        description:
          'Header row naming the columns email, order, name, language, delay (email required; any order and case). `,` or `;`, ' +
          `UTF-8 with or without BOM, CRLF or LF, RFC 4180 quotes. At most ${CSV_LIMITS.rows.toLocaleString('en')} rows and ` +
          `${CSV_LIMITS.bytes / 1024 / 1024} MB. The file is read and checked to its end before any row is queued: a file that cannot be taken ` +
          'as a whole (over a limit, not UTF-8, no usable header, broken off) queues nothing; bad rows are skipped and named. Rows with an ' +
          'address and order invited before are not queued again.',
        parameters: shop,
        requestBody: { required: true, content: { 'text/csv': { schema: str() } } },
        responses: {
          '200': json(csvResult),
          ...writes('invite'),
          '400': error(
            'invalid: the file cannot be read (no header naming email, not UTF-8, empty, broken off); nothing was queued',
          ),
          '413': error(
            `payload_too_large: over ${CSV_LIMITS.bytes / 1024 / 1024} MB or ${CSV_LIMITS.rows.toLocaleString('en')} rows; nothing was queued`,
          ),
          '415': error('unsupported_media_type: a form or JSON instead of the file'),
        },
      },
    },
    '/dashboard/api/shops/{shopId}/invitations/settings': {
      get: {
        ...dashboard,
        summary:
          'Days after the invitation e-mail to send one reminder when its link was not used; 0: none (managers, owners)',
        parameters: shop,
        responses: { '200': json(obj({ reminder_days: int() })), ...reads('invite') },
      },
      patch: {
        ...dashboard,
        summary: 'Change reminder_days (audited)',
        parameters: shop,
        requestBody: body(invitationSettingsSchema),
        responses: { '200': json(obj({ reminder_days: int() })), ...writes('invite') },
      },
    },
    '/dashboard/api/shops/{shopId}/widget': {
      get: {
        ...dashboard,
        summary: 'The sidebar settings, the snippets to paste and the configurator’s address (managers, owners)',
        parameters: shop,
        responses: { '200': json(widget), ...reads('widget') },
      },
      patch: {
        ...dashboard,
        summary: 'Change sidebar settings (audited)',
        parameters: shop,
        requestBody: body(sidebarSchema),
        responses: { '200': json(widget), ...writes('widget') },
      },
    },
    '/dashboard/api/shops/{shopId}/integration': {
      get: {
        ...dashboard,
        summary:
          'Shop id, require_signed_order_data and the plugins that called Add invitation in the last 90 days (every role)',
        parameters: shop,
        responses: {
          '200': json(
            obj({
              ...(integration.properties as Record<string, Schema>),
              plugins: {
                type: 'array',
                items: obj({
                  client: nullable('string'),
                  platform_version: nullable('string'),
                  plugin_version: nullable('string'),
                  last_seen: str('ISO 8601'),
                  invitations: int(),
                }),
              },
            }),
          ),
          ...reads('read'),
        },
      },
      patch: {
        ...dashboard,
        summary: 'Switch require_signed_order_data (owners; audited)',
        parameters: shop,
        requestBody: body(integrationPatchSchema),
        responses: { '200': json(integration), ...writes('integration') },
      },
    },
    '/dashboard/api/shops/{shopId}/integration/code/reveal': {
      post: {
        ...dashboard,
        summary: 'Show the API code (owners; audited)',
        parameters: shop,
        responses: { '200': json(code), ...writes('integration') },
      },
    },
    '/dashboard/api/shops/{shopId}/integration/code/rotate': {
      post: {
        ...dashboard,
        summary: 'A new API code; the old one stops working at once (owners; audited)',
        parameters: shop,
        responses: { '200': json(code), ...writes('integration') },
      },
    },
    '/dashboard/api/shops/{shopId}/webhooks': {
      get: {
        ...dashboard,
        summary: 'The shop’s webhook subscriptions with their secrets, newest first (owners)',
        parameters: [...shop, ...queryFromZod(pageQuery)],
        responses: { '200': json(list(subscription)), ...reads('integration') },
      },
      post: {
        ...dashboard,
        summary:
          'Subscribe (the classic API’s rules: https, no private addresses, at most 100 per shop unless the operator set another limit; audited)',
        parameters: shop,
        requestBody: body(subscribeSchema),
        responses: {
          '201': json(subscription, 'created'),
          ...writes('integration'),
          '400': error('invalid (the message names the field), or limit_reached'),
        },
      },
    },
    '/dashboard/api/shops/{shopId}/webhooks/{webhookId}': {
      patch: {
        ...dashboard,
        summary: 'Change url, topic or is_active; on again clears an automatic switch-off (audited)',
        parameters: webhook,
        requestBody: body(webhookPatchSchema),
        responses: { '200': json(subscription), ...writes('integration') },
      },
      delete: {
        ...dashboard,
        summary: 'Delete with its pending deliveries and log (audited)',
        parameters: webhook,
        responses: { '204': { description: 'deleted' }, ...writes('integration') },
      },
    },
    '/dashboard/api/shops/{shopId}/webhooks/{webhookId}/deliveries': {
      get: {
        ...dashboard,
        summary: 'The delivery log, newest first',
        parameters: [...webhook, ...queryFromZod(pageQuery)],
        responses: { '200': json(list(delivery)), ...reads('integration') },
      },
    },
    '/dashboard/api/shops/{shopId}/webhooks/{webhookId}/redeliver': {
      post: {
        ...dashboard,
        summary: 'Send an event again now (audited)',
        parameters: webhook,
        requestBody: body(redeliverSchema),
        responses: {
          '202': json(obj({ status: { const: 'queued' } }), 'queued'),
          ...writes('integration'),
          '400': error('invalid event_id, or the webhook is switched off'),
          '404': error('no such webhook, or the event was not sent to it'),
        },
      },
    },
    '/dashboard/api/shops/{shopId}/audit': {
      get: {
        ...dashboard,
        summary: 'The shop’s audit trail (merchant actions, moderation, operator), newest first (owners)',
        parameters: [...shop, ...queryFromZod(pageQuery)],
        responses: {
          '200': json(
            list(
              obj({
                id: str(),
                at: str('ISO 8601'),
                actor: str('operator, system, writer, or user:<id>'),
                action: str('e.g. webhook.created, integration.code_rotated, report.removed'),
                target: nullable('string'),
                details: { type: 'object', description: 'no addresses: any that slips in is stored as its SHA-256' },
              }),
            ),
          ),
          ...reads('team'),
        },
      },
    },
  };
}
