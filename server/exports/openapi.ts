// The OpenAPI entries of the exports (operator API and dashboard), spread into server/openapi/document.ts. The query
// and the JSON records come from the zod schemas that validate and shape them; the CSV columns are listed from the
// same tables the file is written from.
import { adminError, fromZod, int, queryFromZod, type Schema } from '../http/openapi.js';
import { INVITATION_COLUMNS, invitationRecordSchema, REVIEW_COLUMNS, reviewRecordSchema } from './records.js';
import { exportQuery } from './service.js';

const columnsOf = (columns: readonly (readonly [string, unknown])[]) =>
  columns.map(([name]) => `\`${name}\``).join(', ');

/** The file: a CSV (UTF-8 with BOM) or a JSON array of records, with Content-Disposition naming the file. */
const fileAnswer = (record: Schema, columns: string) => ({
  description:
    'The file, streamed (`Content-Disposition: attachment; filename="shop-{id}-{kind}-{YYYY-MM-DD}.{csv|json}"`). CSV: UTF-8 with a ' +
    `byte-order mark, RFC 4180, CRLF; header row ${columns}; a cell starting with \`=\`, \`+\`, \`-\`, \`@\`, a tab or a carriage ` +
    "return (after any apostrophes) is prefixed with `'`. JSON: one array of records. A file cut short (the connection broke) is not " +
    'valid JSON, and a CSV without its last rows: compare with the count in the audit trail.',
  headers: { 'Content-Disposition': { schema: { type: 'string' } } },
  content: {
    'text/csv; charset=utf-8': { schema: { type: 'string' } },
    'application/json; charset=utf-8': { schema: { type: 'array', items: record } },
  },
});

export function exportPaths() {
  const format = queryFromZod(exportQuery);
  const busy = adminError(
    'another export of this shop is running (code `export_running`, Retry-After): one at a time per shop',
  );
  const operator = { security: [{ operatorToken: [] }], tags: ['operator'] };
  const operatorErrors = {
    '400': adminError('`format` is not csv or json (code `bad_request`)'),
    '401': adminError('no or wrong operator token'),
    '404': adminError('no such webshop'),
    '429': busy,
  };
  const dashboard = { tags: ['dashboard'], security: [{ dashboardSession: [] }] };
  const dashboardErrors = {
    '400': adminError('`format` is not csv or json (code `invalid`)'),
    '401': adminError('no session (code `unauthenticated`)'),
    '403': adminError(
      'the role may not export (support: `forbidden`), or the browser says another site asked (`csrf`, Sec-Fetch-Site)',
    ),
    '404': adminError('no such shop for this user'),
    '429': busy,
  };
  const id = { name: 'id', in: 'path', required: true, schema: int() };
  const shopId = { name: 'shopId', in: 'path', required: true, schema: int() };
  const reviews = fileAnswer(fromZod(reviewRecordSchema), columnsOf(REVIEW_COLUMNS));
  const invitations = fileAnswer(fromZod(invitationRecordSchema), columnsOf(INVITATION_COLUMNS));
  return {
    '/admin/api/webshops/{id}/reviews/export': {
      get: {
        ...operator,
        summary:
          "Every review of the shop in every status, with its replies, origin, dates, products, photos' URLs and e-mail address. Audited.",
        parameters: [id, ...format],
        responses: { '200': reviews, ...operatorErrors },
      },
    },
    '/admin/api/webshops/{id}/invitations/export': {
      get: {
        ...operator,
        summary: 'Every invitation of the shop with its address and state. Audited.',
        parameters: [id, ...format],
        responses: { '200': invitations, ...operatorErrors },
      },
    },
    '/dashboard/api/shops/{shopId}/reviews/export': {
      get: {
        ...dashboard,
        summary:
          "Every review of the shop, as the operator's export; e-mail addresses for owners only (a manager's file has the `email` column, empty; null in JSON). Owners and managers. Audited.",
        parameters: [shopId, ...format],
        responses: { '200': reviews, ...dashboardErrors },
      },
    },
    '/dashboard/api/shops/{shopId}/invitations/export': {
      get: {
        ...dashboard,
        summary: 'Every invitation of the shop with its address and state. Owners and managers. Audited.',
        parameters: [shopId, ...format],
        responses: { '200': invitations, ...dashboardErrors },
      },
    },
  };
}
