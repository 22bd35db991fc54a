// A shop's reviews or invitations as one downloadable file, CSV or JSON, streamed: the records are read from a
// database cursor in batches and written as the client takes them (Readable.from pulls the next batch only when the
// socket drained the last), so memory stays a few batches whatever the shop's size, and a client that goes away
// destroys the stream, which closes the cursor. One export per shop at a time (slot-store.ts); each export is
// recorded in the audit trail with who asked, what, in which format and how many records went out.
import { Readable } from 'node:stream';
import { z } from 'zod';
import type { AuditActor } from '../audit/model.js';
import { stateOf } from '../dashboard/invitations.js';
import { historyOf } from '../invitations/admin.js';
import type { Review } from '../reviews/model.js';
import type { Services } from '../services.js';
import type { Webshop } from '../webshops/model.js';
import { BOM, csvLine } from '../spreadsheet-csv.js';
import { type Addresses, INVITATION_COLUMNS, invitationRecord, REVIEW_COLUMNS, reviewRecord } from './records.js';
import type { ExportSlots } from './slot-store.js';
import { publicPhotos } from '../reviews/photos.js';

const EXPORT_FORMATS = ['csv', 'json'] as const;
type ExportFormat = (typeof EXPORT_FORMATS)[number];
export type ExportKind = 'reviews' | 'invitations';

/** `?format=csv|json` (csv when absent). */
export const exportQuery = z.object({
  format: z.enum(EXPORT_FORMATS, { error: 'must be csv or json' }).default('csv'),
});

/**
 * Records per database batch and per chunk written. Invitations cost a look-up by `_id` each for their state (as
 * the dashboard's list), made for a batch at once: a smaller batch keeps that burst small.
 */
const BATCH = { reviews: 1000, invitations: 100 } as const;

const CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  json: 'application/json; charset=utf-8',
};

/** The addresses of a review's shown photos (they answer while the review is published): held on the review. */
const photoUrls = (review: Review, baseUrl: string): string[] => publicPhotos(review, baseUrl).map((p) => p.url);

type Cell = string | number | boolean | null;
type Columns<R> = readonly (readonly [string, (record: R) => Cell])[];

async function* reviewBatches(services: Pick<Services, 'config' | 'reviews'>, shopId: number, addresses: Addresses) {
  for await (const batch of services.reviews.allOfShops([shopId], BATCH.reviews)) {
    yield batch.map((r) => reviewRecord(r, addresses, photoUrls(r, services.config.baseUrl)));
  }
}

async function* invitationBatches(services: Pick<Services, 'invitations'>, shopId: number, addresses: Addresses) {
  for await (const batch of services.invitations.allOfShops([shopId], BATCH.invitations)) {
    const outcomes = await services.invitations.queue.outcomesOf(batch.map((i) => i._id));
    yield batch.map((i) => {
      const history = historyOf(i.created, outcomes.get(i._id.toHexString()), { due: null, outcome: undefined });
      return invitationRecord(i, addresses, stateOf(history, null));
    });
  }
}

/**
 * The file's text, a chunk per batch; `counted` learns how many records went into it. The header (CSV) or the
 * opening bracket (JSON) goes out with the first batch, so that the first chunk is only there once the database
 * answered.
 */
async function* encode<R>(
  format: ExportFormat,
  columns: Columns<R>,
  batches: AsyncGenerator<R[]>,
  counted: (n: number) => void,
): AsyncGenerator<string> {
  let head = format === 'csv' ? BOM + csvLine(columns.map(([name]) => name)) : '[';
  for await (const batch of batches) {
    if (!batch.length) continue;
    counted(batch.length);
    yield format === 'csv'
      ? head + batch.map((record) => csvLine(columns.map(([, cell]) => cell(record)))).join('')
      : `${head}${head ? '\n' : ',\n'}${batch.map((record) => JSON.stringify(record)).join(',\n')}`;
    head = '';
  }
  const tail = head + (format === 'json' ? '\n]\n' : '');
  if (tail) yield tail;
}

interface ExportRequest {
  kind: ExportKind;
  format: ExportFormat;
  shop: Webshop;
  addresses: Addresses;
  actor: AuditActor;
}

interface ExportFile {
  fileName: string;
  contentType: string;
  body: Readable;
}

/** `shop-12-reviews-2026-11-27.csv`: ASCII only, so that no header encoding is needed. */
const fileNameOf = (shopId: number, kind: ExportKind, format: ExportFormat, now: Date): string =>
  `shop-${shopId}-${kind}-${now.toISOString().slice(0, 10)}.${format}`;

/**
 * Starts an export: null while another export of the shop runs. The first chunk (the header and the first batch) is
 * read before answering, so that a database that fails at once gets an error answer rather than a broken file.
 */
export async function startExport(
  services: Pick<Services, 'audit' | 'config' | 'invitations' | 'log' | 'now' | 'reviews'>,
  slots: ExportSlots,
  req: ExportRequest,
): Promise<ExportFile | null> {
  const slot = await slots.take(req.shop.id);
  if (!slot) return null;
  let records = 0;
  const counted = (n: number) => {
    records += n;
  };
  const chunks =
    req.kind === 'reviews'
      ? encode(req.format, REVIEW_COLUMNS, reviewBatches(services, req.shop.id, req.addresses), counted)
      : encode(req.format, INVITATION_COLUMNS, invitationBatches(services, req.shop.id, req.addresses), counted);
  let first: IteratorResult<string>;
  try {
    first = await chunks.next();
  } catch (err) {
    await slot.release();
    throw err;
  }
  let complete = false;
  let finished: Promise<void> | undefined;
  // Records the export and frees the slot, once: at the end of the file, or when the stream closes early.
  const finish = () =>
    (finished ??= (async () => {
      try {
        await services.audit.record({
          shopId: req.shop.id,
          actor: req.actor,
          action: `${req.kind}.exported`,
          details: { format: req.format, records, complete, addresses: req.addresses },
        });
      } catch (err) {
        services.log.warn({ err, shopId: req.shop.id }, 'the export could not be recorded in the audit trail');
      } finally {
        await slot.release().catch((err) => services.log.warn({ err }, 'an export slot could not be released'));
      }
    })());
  async function* rest(): AsyncGenerator<string> {
    if (!first.done) yield first.value;
    yield* chunks;
    complete = true;
    // Before the end of the answer: a client that asks again as soon as it has the file finds the slot free.
    await finish();
  }
  const body = Readable.from(rest(), { objectMode: false });
  body.once('close', () => {
    // A client that went away destroyed the stream, which ended the generators: their `finally` closed the cursor.
    void finish();
  });
  return {
    fileName: fileNameOf(req.shop.id, req.kind, req.format, services.now()),
    contentType: CONTENT_TYPES[req.format],
    body,
  };
}
