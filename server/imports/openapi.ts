// The contracts of the bulk import routes (admin.ts, dashboard.ts). Requests and answers are zod schemas: the
// requests' are the ones admin.ts validates with.
import { z } from 'zod';
import { adminError, type Endpoint, ids, json } from '../http/contract.js';
import { FORMATS, MAPPED_FIELDS } from './formats.js';
import { heldDecisionSchema, importFieldsSchema } from './admin.js';

const errors = {
  401: adminError('no or wrong operator token'),
  404: adminError('no such webshop, or no such import of it'),
};
const conflict = { 409: adminError('the import is not in a state that allows this (code conflict)') };

const problem = z.object({
  line: z.int().describe('the row as a spreadsheet numbers it; the header is line 1'),
  reason: z.string(),
});
const distribution = z
  .object({ '1': z.int(), '2': z.int(), '3': z.int(), '4': z.int(), '5': z.int() })
  .describe('stars of the reviews to import');
const previewReview = z.object({
  line: z.int(),
  kind: z.enum(['store', 'product']).describe('product: a review of a product only, never in the shop’s score'),
  rating: z.int().min(1).max(5),
  title: z.string(),
  text: z.string(),
  name: z.string(),
  date: z.string().describe('YYYY-MM-DD HH:MM:SS (UTC): the date on the source platform'),
  held: z.boolean().describe('unpublished, spam or not approved at the source: imported unpublished'),
  reply: z.string().nullable(),
  product: z.string().nullable(),
});

const counts = {
  read: z.int().describe('rows below the header'),
  imported: z.int(),
  duplicates: z.int().describe('reviews imported before (same platform and id, or same date, name and text)'),
  held: z.int().describe('imported unpublished, waiting for the operator’s decision'),
  store_reviews: z.int(),
  product_reviews: z.int(),
};

const importView = z.object({
  id: z.string(),
  status: z.enum(['awaiting_approval', 'running', 'done', 'failed', 'undone']),
  file_name: z.string(),
  bytes: z.int(),
  format: z.enum(FORMATS),
  imported_from: z.string().describe('the platform, as reviews name it ("Imported from Yotpo")'),
  date_order: z.enum(['dmy', 'mdy']),
  created: z.string(),
  by: z.string().describe('operator, or user:<id> for an import from the dashboard'),
  approved: z.string().nullable(),
  finished: z.string().nullable(),
  undone: z.string().nullable(),
  error: z.string().nullable(),
  ...counts,
  problems: z.array(problem).describe('up to 1,000 (the count is `problem_count`)'),
  problem_count: z.int().describe('rows skipped as problems, also past the listed ones'),
  preview: z.object({
    rows: z.int().describe('rows below the header: what the progress of a running import counts up to'),
    to_import: z.int(),
    duplicates: z.int(),
    held: z.int(),
    problems: z.int(),
    distribution,
    reviews: z.array(previewReview).describe('the first 10'),
  }),
  held_decision: z
    .object({ action: z.enum(['keep', 'remove']), ground: z.string().nullable(), at: z.string(), reviews: z.int() })
    .nullable()
    .describe('the latest decision on its held reviews, once the worker applied it: `reviews` decided'),
  held_decision_pending: z
    .object({ action: z.enum(['keep', 'remove']), ground: z.string().nullable(), at: z.string(), reviews: z.int() })
    .nullable()
    .describe('a decision on its held reviews that the worker is applying: `reviews` decided so far'),
  photos_queued: z
    .int()
    .describe(
      'photo URLs of the file (at most 5 per review, store or product review) queued to be fetched once the import is done; they become photos of their reviews',
    ),
  photos_fetched: z.int().describe('photos fetched and handed to the photo pipeline (re-encoded, metadata dropped)'),
  photos_failed: z
    .int()
    .describe(
      'photo URLs that could not be fetched or are not a photo we read (refused address, HTTP error, too large, not an image): the review is kept without it',
    ),
  photo_failure: z.string().nullable().describe('the latest failure: `<url>: <reason>`'),
});

const columnMapping = z
  .object(Object.fromEntries(MAPPED_FIELDS.map((f) => [f, z.string().optional()])))
  .describe('which column of the header holds what');

const dryRun = z.object({
  dry_run: z.literal(true),
  format: z.enum(FORMATS),
  imported_from: z.string(),
  date_order: z.enum(['dmy', 'mdy']),
  read: z.int(),
  to_import: z.int(),
  duplicates: z.int(),
  held: z.int(),
  store_reviews: z.int(),
  product_reviews: z.int(),
  distribution,
  reviews: z.array(previewReview),
  problems: z.array(problem),
  problem_count: z.int().describe('rows skipped as problems, also past the listed ones'),
  reply_authors_found: z.array(z.string()).describe('WooCommerce: authors of rows that answer another row'),
  columns: z.array(z.string()).describe('the header row'),
  mapping: columnMapping
    .nullable()
    .describe('format mapped: the mapping used (given, or the one the shop gave for a file with the same header)'),
  warnings: z.array(z.string()),
});

const upload = {
  schema: importFieldsSchema.extend({
    file: z.string().meta({ format: 'binary', description: 'the CSV file, at most 100 MB, 200,000 rows' }),
  }),
  mediaTypes: ['multipart/form-data'],
};

const dashboardErrors = {
  401: adminError('no session (code unauthenticated)'),
  403: adminError('Origin or X-CSRF-Token wrong (code csrf), or the role is support (code forbidden)'),
  404: adminError('no such shop among the user’s shops, or no such import of it'),
};
const list = z.object({ imports: z.array(importView) });
/** The dashboard's list names who started each import (an address of the shop's team; null: not on it any more). */
const dashboardList = z.object({
  imports: z.array(importView.extend({ by_email: z.string().nullable() })),
});
/** The dashboard app's types of these answers (type-only imports: the browser bundle loads no zod). */
export type DashboardImport = z.infer<typeof dashboardList>['imports'][number];
export type ImportDryRun = z.infer<typeof dryRun>;
const operator = { family: 'operator', auth: 'operatorToken' } as const;
const dashboard = { family: 'dashboard', auth: 'dashboardSession' } as const;
const shopImport = ids('id').extend({ importId: z.string() });

export const importEndpoints: Endpoint[] = [
  {
    ...dashboard,
    method: 'post',
    path: '/dashboard/api/shops/{shopId}/imports',
    summary:
      'Import reviews from another platform’s export (owner, manager); with IMPORT_APPROVAL=operator it waits for the operator’s approval',
    params: ids('shopId'),
    body: upload,
    answers: {
      200: json(dryRun, 'dry_run=1: the preview; nothing is written'),
      202: json(importView, 'accepted: awaiting approval, or running'),
      ...dashboardErrors,
      413: adminError('the file is larger than 100 MB'),
      422: adminError(
        'nothing imported (codes file_refused, date_order_needed, validation_failed, or mapping_needed: a header of no known format and no mapping for it; `error.columns` lists the header row)',
      ),
    },
  },
  {
    ...dashboard,
    method: 'get',
    path: '/dashboard/api/shops/{shopId}/imports',
    summary: 'The shop’s imports, newest first (owner, manager)',
    params: ids('shopId'),
    answers: { 200: json(dashboardList), ...dashboardErrors },
  },
  {
    ...dashboard,
    method: 'get',
    path: '/dashboard/api/shops/{shopId}/imports/{importId}',
    summary: 'An import’s status, counts and progress (owner, manager)',
    params: ids('shopId').extend({ importId: z.string() }),
    answers: { 200: json(importView), ...dashboardErrors },
  },
  {
    ...operator,
    method: 'post',
    path: '/admin/api/webshops/{id}/imports',
    summary:
      'Import reviews from another platform’s export (Yotpo, Judge.me, Shopify Product Reviews, WooCommerce, Trustpilot); runs in the worker, without approval (audited)',
    params: ids('id'),
    body: upload,
    answers: {
      200: json(dryRun, 'dry_run=1: what the import would do; nothing is written'),
      202: json(importView, 'accepted: the import runs in the worker'),
      ...errors,
      413: adminError('the file is larger than 100 MB'),
      415: adminError('not multipart/form-data'),
      422: adminError(
        'nothing imported: a field is invalid, or the file is refused (code file_refused: not CSV, an archive, not UTF-8/UTF-16/Windows-1252, past a limit), or its dates read both day-first and month-first (code date_order_needed: give date_order=dmy or mdy), or its header is of no known format (code mapping_needed: give `mapping`; `error.columns` lists the header row)',
      ),
    },
  },
  {
    ...operator,
    method: 'get',
    path: '/admin/api/webshops/{id}/imports',
    summary: 'The shop’s imports, newest first',
    params: ids('id'),
    answers: { 200: json(list), ...errors },
  },
  {
    ...operator,
    method: 'get',
    path: '/admin/api/webshops/{id}/imports/{importId}',
    summary: 'An import’s status and counts',
    params: shopImport,
    answers: { 200: json(importView), ...errors },
  },
  {
    ...operator,
    method: 'delete',
    path: '/admin/api/webshops/{id}/imports/{importId}',
    summary:
      'Undo an import within 30 days of its end (its reviews removed by the worker), or cancel one awaiting approval (audited)',
    params: shopImport,
    answers: { 202: json(importView, 'undone'), ...errors, ...conflict },
  },
  {
    ...operator,
    method: 'post',
    path: '/admin/api/webshops/{id}/imports/{importId}/approve',
    summary: 'Approve an import started from the dashboard (IMPORT_APPROVAL=operator); it then runs (audited)',
    params: shopImport,
    answers: { 202: json(importView, 'approved: running'), ...errors, ...conflict },
  },
  {
    ...operator,
    method: 'post',
    path: '/admin/api/webshops/{id}/imports/{importId}/held',
    summary:
      'Keep (publish) or remove, on a ground, every review of the import still held for the operator (audited); applied by the worker',
    params: shopImport,
    body: { schema: heldDecisionSchema },
    answers: {
      202: json(
        importView,
        'accepted: the worker applies it (`held_decision_pending`), then `held_decision` says how many were decided',
      ),
      ...errors,
      409: adminError(
        'the import is not done, or a decision on its held reviews is still being applied (code conflict)',
      ),
      422: adminError('invalid decision; remove needs a ground'),
    },
  },
];
