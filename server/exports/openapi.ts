// The contracts of the exports (operator API and dashboard). The query and the JSON records are the zod schemas that
// validate and shape them; the CSV columns are listed from the same tables the file is written from.
import { z } from 'zod';
import { adminError, type Answer, type Endpoint, ids } from '../http/contract.js';
import { INVITATION_COLUMNS, invitationRecordSchema, REVIEW_COLUMNS, reviewRecordSchema } from './records.js';
import { exportQuery } from './service.js';

const columnsOf = (columns: readonly (readonly [string, unknown])[]) =>
  columns.map(([name]) => `\`${name}\``).join(', ');

/** The file: a CSV (UTF-8 with BOM, the default) or a JSON array of records, with Content-Disposition naming it. */
const fileAnswer = (record: z.ZodType, columns: string): Answer => ({
  description:
    'The file, streamed (`Content-Disposition: attachment; filename="shop-{id}-{kind}-{YYYY-MM-DD}.{csv|json}"`). CSV: UTF-8 with a ' +
    `byte-order mark, RFC 4180, CRLF; header row ${columns}; a cell starting with \`=\`, \`+\`, \`-\`, \`@\`, a tab or a carriage ` +
    "return (after any apostrophes) is prefixed with `'`. JSON: one array of records. A file cut short (the connection broke) is not " +
    'valid JSON, and a CSV without its last rows: compare with the count in the audit trail.',
  schema: z.string(),
  mediaType: 'text/csv; charset=utf-8',
  alternatives: { 'application/json; charset=utf-8': z.array(record) },
});

const busy = adminError(
  'another export of this shop is running (code `export_running`, Retry-After): one at a time per shop',
);
const operatorErrors = {
  400: adminError('`format` is not csv or json (code `bad_request`)'),
  401: adminError('no or wrong operator token'),
  404: adminError('no such webshop'),
  429: busy,
};
const dashboardErrors = {
  400: adminError('`format` is not csv or json (code `invalid`)'),
  401: adminError('no session (code `unauthenticated`)'),
  403: adminError(
    'the role may not export (support: `forbidden`), or the browser says another site asked (`csrf`, Sec-Fetch-Site)',
  ),
  404: adminError('no such shop for this user'),
  429: busy,
};
const reviews = fileAnswer(reviewRecordSchema, columnsOf(REVIEW_COLUMNS));
const invitations = fileAnswer(invitationRecordSchema, columnsOf(INVITATION_COLUMNS));

export const exportEndpoints: Endpoint[] = [
  {
    method: 'get',
    path: '/admin/api/webshops/{id}/reviews/export',
    family: 'operator',
    auth: 'operatorToken',
    summary:
      "Every review of the shop in every status, with its replies, origin, dates, products, photos' URLs and e-mail address. Audited.",
    params: ids('id'),
    query: exportQuery,
    answers: { 200: reviews, ...operatorErrors },
  },
  {
    method: 'get',
    path: '/admin/api/webshops/{id}/invitations/export',
    family: 'operator',
    auth: 'operatorToken',
    summary: 'Every invitation of the shop with its address and state. Audited.',
    params: ids('id'),
    query: exportQuery,
    answers: { 200: invitations, ...operatorErrors },
  },
  {
    method: 'get',
    path: '/dashboard/api/shops/{shopId}/reviews/export',
    family: 'dashboard',
    auth: 'dashboardSession',
    summary:
      "Every review of the shop, as the operator's export; e-mail addresses for owners only (a manager's file has the `email` column, empty; null in JSON). Owners and managers. Audited.",
    params: ids('shopId'),
    query: exportQuery,
    answers: { 200: reviews, ...dashboardErrors },
  },
  {
    method: 'get',
    path: '/dashboard/api/shops/{shopId}/invitations/export',
    family: 'dashboard',
    auth: 'dashboardSession',
    summary: 'Every invitation of the shop with its address and state. Owners and managers. Audited.',
    params: ids('shopId'),
    query: exportQuery,
    answers: { 200: invitations, ...dashboardErrors },
  },
];
