// The dashboard's invitations (managers and owners: action `invite`):
//   GET  /dashboard/api/shops/{shopId}/invitations?page&page_size&q   every invitation with its state and reason
//   POST /dashboard/api/shops/{shopId}/invitations/csv                 bulk invitations from a CSV file (the body)
//   GET|PATCH /dashboard/api/shops/{shopId}/invitations/settings        {reminder_days} (audited)
// The state is what the operator's history (invitations/admin.ts historyOf) computes from the sending records; the
// upload puts every row through Add invitation's service (invitations/intake.ts), so a row is refused, deduplicated,
// delayed by a consent or skipped for a written review exactly as the API would.
import type { CsvResult, DashboardInvitation, ReminderSettings } from './contract.js';
import type Router from '@koa/router';
import type { Context } from 'koa';
import { ObjectId } from 'mongodb';
import { z } from 'zod';
import { ClassicError, HttpError } from '../http/errors.js';
import { historyOf } from '../invitations/admin.js';
import { parseInvitationInput, type InvitationInput } from '../invitations/input.js';
import { addInvitation } from '../invitations/intake.js';
import { dedupeKey } from '../invitations/rules.js';
import { normalizeLanguage, type Language } from '../languages.js';
import type { Services } from '../services.js';
import { mainLanguage, reminderDays } from '../webshops/rules.js';
import type { Webshop } from '../webshops/model.js';
import { recordMerchantAction } from './audit.js';
import { CsvByteReader, CsvFileError, type CsvRecord } from './csv.js';
import { listOf, pageQuery, parseInput, readBody, shopGuard } from './input.js';
import type { InvitationRow } from './invitation-view.js';

// ---------------------------------------------------------------------------------------------------------------
// The list

export const invitationListQuery = pageQuery.extend({
  q: z.string().trim().max(254, { error: 'must be at most 254 characters' }).optional(),
});

type InvitationState = DashboardInvitation['state'];
type StateOfInvitation = Pick<DashboardInvitation, 'state' | 'reason' | 'sent_at' | 'reminder_sent_at'>;

/**
 * Where an invitation stands, from its history (historyOf): the first e-mail's end if it has one, else queued; a
 * queued one that failed before and waits for its retry carries the server's last answer as its reason.
 */
export function stateOf(history: ReturnType<typeof historyOf>, retryError: string | null): StateOfInvitation {
  const ended = history.find((e) => e.event === 'sent' || e.event === 'failed' || e.event === 'not_sent');
  const reminder = history.find((e) => e.event === 'reminder_sent');
  return {
    state: (ended?.event ?? 'queued') as InvitationState,
    reason: ended ? (ended.reason ?? null) : retryError,
    sent_at: ended?.event === 'sent' ? ended.at : null,
    reminder_sent_at: reminder?.at ?? null,
  };
}

/**
 * The page's invitations with their states. Each state needs a look-up or two by `_id` (about 40 ms each on the
 * embedded database at 30,000 invitations), so only those it needs: the first e-mail's outcome; then, for one sent,
 * its reminder's outcome, and for one not ended, its queue entry (the server's last answer while it waits for a
 * retry). The reminder still to come is not a state the list shows.
 */
async function listView(
  services: Pick<Services, 'invitations'>,
  found: InvitationRow[],
): Promise<DashboardInvitation[]> {
  const { queue, reminders } = services.invitations;
  const ids = found.map((i) => ObjectId.createFromHexString(i.id));
  const outcomes = await queue.outcomesOf(ids);
  const sent = ids.filter((id) => outcomes.get(id.toHexString())?.status === 'sent');
  const waiting = ids.filter((id) => !outcomes.has(id.toHexString()));
  const [reminderOutcomes, entries] = await Promise.all([
    reminders.outcomesOf(sent),
    Promise.all(waiting.map(async (id) => [id.toHexString(), await queue.entryOf(id)] as const)),
  ]);
  const lastErrors = new Map(entries.map(([id, entry]) => [id, entry?.lastError ?? null]));
  return found.map((i) => {
    const history = historyOf(new Date(i.created), outcomes.get(i.id), {
      due: null,
      outcome: reminderOutcomes.get(i.id),
    });
    return {
      id: i.id,
      email: i.email,
      order: i.order,
      name: i.name,
      language: i.language,
      ...stateOf(history, lastErrors.get(i.id) ?? null),
      created: new Date(i.created).toISOString(),
      send_at: i.scheduled.toISOString(),
      client: i.client,
      platform_version: i.platform_version,
      plugin_version: i.plugin_version,
    };
  });
}

// ---------------------------------------------------------------------------------------------------------------
// The CSV upload

export const CSV_LIMITS = {
  /** A 10,000-row file with long names is about 1 MB; ten times that leaves room for any sane export. */
  bytes: 10 * 1024 * 1024,
  /** Data rows per upload (the header not counted). */
  rows: 10_000,
  /** Row errors listed in the answer; the count goes on past them. */
  errorsListed: 1000,
  /**
   * Rows handed to Add invitation at once. Their writes go to the database together (group commit); on FerretDB a
   * re-uploaded 1,000-row file took 10 s in batches of 100 and 3 s in batches of 500 (every take-back of a repeat
   * reads the whole queue, once per group).
   */
  batch: 500,
} as const;

/** What the invitation rows' columns may be called (a header names them, in any order and case). */
const COLUMNS: Record<string, 'email' | 'order' | 'name' | 'language' | 'delay'> = {
  email: 'email',
  'e-mail': 'email',
  order: 'order',
  order_number: 'order',
  name: 'name',
  customer_name: 'name',
  language: 'language',
  delay: 'delay',
};
type Column = (typeof COLUMNS)[string];

/** Where each column is in a row, from the header; a CsvFileError when the header cannot be used. */
export function columnsOf(header: CsvRecord): Partial<Record<Column, number>> {
  if (header.error) throw new CsvFileError(`row 1 (the header): ${header.error}`);
  const at: Partial<Record<Column, number>> = {};
  header.fields.forEach((raw, index) => {
    const column = COLUMNS[raw.trim().toLowerCase()];
    if (!column) return;
    if (at[column] !== undefined) throw new CsvFileError(`row 1 (the header): the column ${column} is named twice`);
    at[column] = index;
  });
  if (at.email === undefined) {
    throw new CsvFileError(
      'row 1 must be the header naming the columns: email, order, name, language, delay (email is required)',
    );
  }
  return at;
}

/** A row as Add invitation's input, or the message saying what is wrong with it. */
export function rowInput(
  record: CsvRecord,
  columns: Partial<Record<Column, number>>,
  shopLanguage: Language,
): InvitationInput | { error: string } {
  if (record.error) return { error: record.error };
  const cell = (column: Column) => {
    const index = columns[column];
    return index === undefined ? '' : (record.fields[index] ?? '').trim();
  };
  if (!cell('email')) return { error: 'email is empty' };
  const language = cell('language');
  if (language && !normalizeLanguage(language))
    return { error: `language "${language}" is not one we send in (e.g. en, nl, de)` };
  try {
    return parseInvitationInput(
      {
        email: cell('email'),
        order: cell('order'),
        customer_name: cell('name'),
        language,
        delay: cell('delay'),
        client: 'dashboard-csv',
      },
      shopLanguage,
    );
  } catch (err) {
    // Add invitation's own messages name "the parameter x"; in a file, x is a column.
    if (err instanceof ClassicError) return { error: err.message.replace(/^The parameter (\w+) /, '$1 ') };
    throw err;
  }
}

/** A record of spreadsheet filler (`;;;;`): not a row anybody meant. */
const isBlank = (record: CsvRecord) => !record.error && record.fields.every((f) => f.trim() === '');

/** The rows of a file read to its end and checked, before anything is queued. */
export interface CheckedCsv {
  /** Data rows read (blank ones not counted). */
  rows: number;
  /** The good rows, in the file's order. */
  inputs: InvitationInput[];
  /** The rows skipped for what is wrong with them, named as a spreadsheet numbers them. */
  errors: { row: number; message: string }[];
  /** All row errors, also those past the listed ones. */
  error_count: number;
}

/** The answer: the checked file's counts and row errors, and what became of its good rows. */
type CsvUploadResult = CsvResult;

/** The file is over a limit: refused as a whole (413), whatever its rows. */
class CsvTooLarge extends CsvFileError {}

const TOO_LARGE = `the file is larger than ${CSV_LIMITS.bytes / 1024 / 1024} MB: split it into several uploads`;

/**
 * Reads the file to its end and checks every row; a file that cannot be taken as a whole (not UTF-8, no usable
 * header, over a limit, broken off before its end) throws a CsvFileError, and nothing in it is ever queued: rows
 * queued before a later part failed would go out within minutes, from a file the merchant was told was refused.
 * Memory: the good rows of one file, at most CSV_LIMITS.rows of them from at most CSV_LIMITS.bytes.
 */
export async function readCsv(body: AsyncIterable<Uint8Array>, shopLanguage: Language): Promise<CheckedCsv> {
  const file: CheckedCsv = { rows: 0, inputs: [], errors: [], error_count: 0 };
  const reader = new CsvByteReader();
  let columns: Partial<Record<Column, number>> | undefined;

  const take = (records: CsvRecord[]) => {
    for (const record of records) {
      if (!columns) {
        columns = columnsOf(record);
        continue;
      }
      if (isBlank(record)) continue;
      if (++file.rows > CSV_LIMITS.rows) {
        throw new CsvTooLarge(
          `the file has more than ${CSV_LIMITS.rows.toLocaleString('en')} rows: split it into several uploads`,
        );
      }
      const input = rowInput(record, columns, shopLanguage);
      if ('error' in input) {
        file.error_count++;
        if (file.errors.length < CSV_LIMITS.errorsListed) file.errors.push({ row: record.row, message: input.error });
      } else file.inputs.push(input);
    }
  };

  // Pulled by hand, and simply no longer pulled past a limit: leaving a `for await` would destroy the request, and
  // with it the connection the answer goes back on. Node discards what the client still sends.
  const chunks = body[Symbol.asyncIterator]();
  let bytes = 0;
  for (let next = await nextChunk(chunks); !next.done; next = await nextChunk(chunks)) {
    bytes += next.value.length;
    if (bytes > CSV_LIMITS.bytes) throw new CsvTooLarge(TOO_LARGE);
    take(reader.push(next.value));
  }
  take(reader.end());
  if (!columns)
    throw new CsvFileError(
      'the file is empty: row 1 must be the header naming the columns: email, order, name, language, delay',
    );
  return file;
}

/** The next piece of the body; a body that breaks off (the client went away) is a file that never ended. */
async function nextChunk(chunks: AsyncIterator<Uint8Array>): Promise<IteratorResult<Uint8Array>> {
  try {
    return await chunks.next();
  } catch {
    throw new CsvFileError('the upload broke off before the end of the file');
  }
}

/**
 * Queues a checked file's good rows in batches, counting into `result` as it goes (so that what was queued is
 * known, and audited, even if the database fails part-way).
 */
export async function queueCsv(
  services: Pick<
    Services,
    'compliance' | 'consents' | 'invitationView' | 'invitations' | 'now' | 'release' | 'reviews' | 'scheduler'
  >,
  shop: Webshop,
  file: CheckedCsv,
  result: CsvUploadResult,
): Promise<void> {
  for (let start = 0; start < file.inputs.length; start += CSV_LIMITS.batch) {
    const batch = file.inputs.slice(start, start + CSV_LIMITS.batch);
    // Rows the shop's invitations already hold (a re-upload) are found in the dashboard's view of them, without a
    // write; the others go to Add invitation, whose unique index finds the repeats the view does not know yet (from
    // another process, or a row above in the same batch), as for the API. Asking the database per batch would read
    // the whole invitations collection on FerretDB, and a repeat's queue entries taken back read the whole queue.
    const keys = batch.map((input) => (input.order ? dedupeKey(input.email, input.order) : null));
    const known = await services.invitationView.known(
      shop.id,
      keys.filter((k) => k !== null),
    );
    const outcomes = await Promise.all(
      batch.map((input, i) =>
        known.has(keys[i] ?? '') ? ('alreadySent' as const) : addInvitation(services, shop, input),
      ),
    );
    for (const outcome of outcomes) {
      if (outcome === 'queued') result.queued++;
      else if (outcome === 'reviewWritten') result.skipped_reviewed++;
      // No per-address limit is asked for, so 'limitReached' cannot happen: what is left is a repeat.
      else result.skipped_duplicates++;
    }
  }
}

/** What the answer says of a checked file before its rows are queued. */
export const uploadResultOf = (file: CheckedCsv): CsvUploadResult => ({
  rows: file.rows,
  queued: 0,
  skipped_duplicates: 0,
  skipped_reviewed: 0,
  errors: file.errors,
  error_count: file.error_count,
});

// ---------------------------------------------------------------------------------------------------------------

/** The invitation settings a manager may change: the operator API's rule for `reminder_days` (0 = no reminder). */
export const invitationSettingsSchema = z
  .object({
    reminder_days: z
      .number({ error: 'must be a whole number of days' })
      .int({ error: 'must be a whole number of days' })
      .min(0, { error: 'must be 0 (no reminder) or more' })
      .max(90, { error: 'must be at most 90' }),
  })
  .strict();

export function registerDashboardInvitationRoutes(
  router: Router,
  services: Pick<
    Services,
    | 'audit'
    | 'compliance'
    | 'config'
    | 'consents'
    | 'invitationView'
    | 'invitations'
    | 'log'
    | 'now'
    | 'outbox'
    | 'release'
    | 'reviews'
    | 'scheduler'
    | 'sessions'
    | 'signInLinks'
    | 'teamInvitations'
    | 'users'
    | 'webshops'
  >,
): void {
  const guard = shopGuard(services);
  router.get('/dashboard/api/shops/:shopId/invitations/settings', ...guard('invite'), async (ctx) => {
    ctx.body = { reminder_days: reminderDays(ctx.state.shop as Webshop) } satisfies ReminderSettings;
  });

  router.patch('/dashboard/api/shops/:shopId/invitations/settings', ...guard('invite'), async (ctx) => {
    const input = await readBody(ctx, invitationSettingsSchema);
    const shop = await services.webshops.update((ctx.state.shop as Webshop).id, { reminder_days: input.reminder_days });
    if (!shop) throw new HttpError(404, 'No such webshop.');
    const reminder = { from: reminderDays(ctx.state.shop as Webshop), to: reminderDays(shop) };
    await recordMerchantAction(services, ctx, 'invitations.settings_changed', { details: { reminder_days: reminder } });
    ctx.body = { reminder_days: reminderDays(shop) } satisfies ReminderSettings;
  });

  router.get('/dashboard/api/shops/:shopId/invitations', ...guard('invite'), async (ctx) => {
    const q = parseInput(invitationListQuery, ctx.query);
    const shop = ctx.state.shop as Webshop;
    const { items, total } = await services.invitationView.page(
      shop.id,
      q.q || undefined,
      (q.page - 1) * q.page_size,
      q.page_size,
    );
    ctx.body = listOf(await listView(services, items), total, q);
  });

  router.post('/dashboard/api/shops/:shopId/invitations/csv', ...guard('invite'), async (ctx) => {
    refuseForms(ctx);
    const shop = ctx.state.shop as Webshop;
    let file: CheckedCsv;
    try {
      if (Number(ctx.get('content-length') || 0) > CSV_LIMITS.bytes) throw new CsvTooLarge(TOO_LARGE);
      file = await readCsv(ctx.req, mainLanguage(shop));
    } catch (err) {
      if (!(err instanceof CsvFileError)) throw err;
      const [status, code] = err instanceof CsvTooLarge ? [413, 'payload_too_large'] : [400, 'invalid'];
      // The client may still be sending what was not read: this connection cannot carry another request.
      const headers: Record<string, string> = ctx.req.complete ? {} : { Connection: 'close' };
      throw new HttpError(status, `${err.message}. Nothing in the file was queued.`, code, headers);
    }
    const result = uploadResultOf(file);
    try {
      await queueCsv(services, shop, file, result);
    } finally {
      await recordMerchantAction(services, ctx, 'invitations.csv_uploaded', {
        details: {
          rows: result.rows,
          queued: result.queued,
          skipped_duplicates: result.skipped_duplicates,
          skipped_reviewed: result.skipped_reviewed,
          errors: result.error_count,
        },
      });
    }
    ctx.body = result;
  });
}

/** The file is the body itself; a form upload would need a multipart parser that holds the file. */
function refuseForms(ctx: Context): void {
  if (ctx.is('multipart/form-data', 'application/x-www-form-urlencoded', 'application/json')) {
    throw new HttpError(
      415,
      'Send the CSV file itself as the request body (Content-Type: text/csv).',
      'unsupported_media_type',
    );
  }
}
