// What the dashboard's API answers, as zod schemas: the routes' answer types and the dashboard app's types
// (dashboard/, type-only imports: the browser bundle loads no zod) are z.infer of them, and openapi.ts puts them in
// the served document.
import { z } from 'zod';
import type { Settings } from '../../embed/shared/settings.js';
import { GROUNDS, REPORT_STATUSES } from '../moderation/schema.js';
import { ORIGINS } from '../reviews/origin.js';
import { deliveryLogItemSchema, topic } from '../webhooks/openapi.js';
import { CSV_LIMITS } from './invitations.js';
import { REVIEW_STATUSES } from './review-view.js';

/** A list page: `{items, total, page, page_size}`. */
export const page = <Item extends z.ZodType>(item: Item) =>
  z.object({ items: z.array(item), total: z.int(), page: z.int(), page_size: z.int() });
export type Page<Item> = { items: Item[]; total: number; page: number; page_size: number };

const iso = (description = 'ISO 8601') => z.string().meta({ description });
const score = z.number().nullable();

export const overviewSchema = z.object({
  score,
  count: z.int(),
  months: z
    .array(z.object({ month: z.string().meta({ description: 'YYYY-MM (UTC)' }), score, count: z.int() }))
    .meta({ description: '12, oldest first' }),
  distribution: z.object({ 1: z.int(), 2: z.int(), 3: z.int(), 4: z.int(), 5: z.int() }),
  sub_scores: z.object({ shippingtime: score, customerservice: score, pricequality: score, aftersale: score }),
  answered_share: z.number().meta({ description: '0–1' }),
  /** Issue 21: the policy page's per-star table, the shop's own copy. */
  stars: z
    .object({
      received: z.record(z.string(), z.int()),
      published: z.record(z.string(), z.int()),
      removed: z.record(z.string(), z.record(z.string(), z.int())),
    })
    .optional()
    .meta({
      description:
        'the last 12 months per star (1–5), as the policy page shows them: reviews received, first published, and removed per ground (ground → star → count), from the compliance counters',
    }),
});
export type Overview = z.infer<typeof overviewSchema>;

/** A review as the dashboard lists it: never the writer's e-mail address, nor link secrets. */
export const dashboardReviewSchema = z.object({
  id: z.int(),
  name: z.string(),
  rating: z.int().meta({ description: '1–5' }),
  ratings: z.object({
    shippingtime: z.int(),
    customerservice: z.int(),
    pricequality: z.int(),
    aftersale: z.int(),
  }),
  comment: z.string().nullable(),
  language: z.string(),
  country: z.string(),
  order: z.string(),
  created: iso(),
  modified: iso(),
  status: z.enum(REVIEW_STATUSES),
  origin: z.enum(ORIGINS),
  incentivised: z.boolean(),
  imported_from: z.string().nullable(),
  read: z.boolean(),
  reply: z.object({ text: z.string(), date: iso(), notify: z.boolean() }).nullable(),
  /** The shown photos of a published review, by path (issue 20); absent when none. */
  photos: z
    .array(
      z.object({
        url: z.string(),
        thumb_url: z.string(),
        thumb_width: z.int(),
        thumb_height: z.int(),
        alt: z.string(),
      }),
    )
    .optional(),
});
export type DashboardReview = z.infer<typeof dashboardReviewSchema>;

export const filedReportSchema = z.object({
  report: z.object({
    id: z.string(),
    review_id: z.int(),
    ground: z.enum(GROUNDS),
    status: z.enum(REPORT_STATUSES).meta({ description: 'open: just filed' }),
    created: iso(),
  }),
});
export type FiledReport = z.infer<typeof filedReportSchema>;

export const dashboardInvitationSchema = z.object({
  id: z.string(),
  email: z.string(),
  order: z.string(),
  name: z.string(),
  language: z.string(),
  state: z.enum(['queued', 'sent', 'failed', 'not_sent']),
  reason: z.string().nullable().meta({
    description: "failed: the mail server's answer; not_sent: unsubscribed; queued: the last error before a retry",
  }),
  created: iso(),
  send_at: iso('ISO 8601: when it is (or was) due'),
  sent_at: z.string().nullable().meta({ description: 'ISO 8601' }),
  reminder_sent_at: z.string().nullable().meta({ description: 'ISO 8601' }),
  client: z
    .string()
    .nullable()
    .meta({ description: 'the plugin that called Add invitation; dashboard-csv for uploads' }),
  platform_version: z.string().nullable(),
  plugin_version: z.string().nullable(),
});
export type DashboardInvitation = z.infer<typeof dashboardInvitationSchema>;

export const csvResultSchema = z.object({
  rows: z.int().meta({ description: 'data rows read, blank ones not counted' }),
  queued: z.int(),
  skipped_duplicates: z.int().meta({ description: 'address and order invited before: not queued again' }),
  skipped_reviewed: z.int().meta({ description: 'the customer already wrote a review for the order' }),
  errors: z
    .array(
      z.object({
        row: z.int().meta({ description: 'as a spreadsheet numbers it: the header is row 1' }),
        message: z.string(),
      }),
    )
    .meta({ description: `at most ${CSV_LIMITS.errorsListed}` }),
  error_count: z.int().meta({ description: 'every row error, also past the listed ones' }),
});
export type CsvResult = z.infer<typeof csvResultSchema>;

export const reminderSettingsSchema = z.object({ reminder_days: z.int() });
export type ReminderSettings = z.infer<typeof reminderSettingsSchema>;

// The settings' type is the embed's own (the browser code cannot load zod); the PATCH body's schema validates them.
const sidebarSettings = z.custom<Settings>().meta({
  description: 'the sidebar settings, every key (embed/shared/settings.ts)',
  override: { type: 'object', additionalProperties: true },
});
export const widgetSchema = z.object({
  settings: sidebarSettings,
  defaults: sidebarSettings,
  snippets: z.object({
    sidebar_script: z.string(),
    order_data_element: z.string(),
    php_signature: z.string().meta({ description: 'names the API code $apiCode; never contains it' }),
  }),
  configurator_url: z.string(),
  preview_url: z.string().meta({
    description: "a sample page running the shop's real sidebar; page globals in its query override the settings",
  }),
  global_prefix: z
    .string()
    .meta({ description: "the page globals' prefix, `_<brand>_`: `<prefix>sidebar_position=right`" }),
});
export type Widget = z.infer<typeof widgetSchema>;

export const integrationSettingsSchema = z.object({ shop_id: z.int(), require_signed_order_data: z.boolean() });
const pluginSchema = z.object({
  client: z.string().nullable(),
  platform_version: z.string().nullable(),
  plugin_version: z.string().nullable(),
  last_seen: iso(),
  invitations: z.int(),
});
export const integrationSchema = integrationSettingsSchema.extend({ plugins: z.array(pluginSchema) });
export type Integration = z.infer<typeof integrationSchema>;
export const apiCodeSchema = z.object({ code: z.string().meta({ description: 'the API code' }) });

export const dashboardWebhookSchema = z.object({
  id: z.int(),
  url: z.string(),
  topic,
  is_active: z.boolean(),
  secret: z.string().meta({ description: 'keys the X-Hash of every delivery' }),
  disabled_reason: z.string().nullable().meta({ description: 'set when the service switched it off' }),
  created: iso(),
});
export type DashboardWebhook = z.infer<typeof dashboardWebhookSchema>;

export const dashboardDeliverySchema = deliveryLogItemSchema.extend({ time: iso() });
export type DashboardDelivery = z.infer<typeof dashboardDeliverySchema>;

export const dashboardAuditEntrySchema = z.object({
  id: z.string(),
  at: iso(),
  actor: z.string().meta({ description: 'operator, system, writer, or user:<id>' }),
  action: z.string().meta({ description: 'e.g. webhook.created, integration.code_rotated, report.removed' }),
  target: z.string().nullable(),
  details: z
    .record(z.string(), z.unknown())
    .meta({ description: 'no addresses: any that slips in is stored as its SHA-256' }),
});
export type DashboardAuditEntry = z.infer<typeof dashboardAuditEntrySchema>;
