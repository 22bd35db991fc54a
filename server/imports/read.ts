// Reading an import file from its bytes (wherever they are kept: `open` yields them in order, again for each pass):
// the first pass finds the format, counts the rows, decides the order of day and month and gathers WooCommerce's
// replies (rows that answer another row); the second yields the reviews in batches. Nothing here writes: a fatal
// problem is thrown (ImportFileError) before the import writes anything.
import { CsvReader, type CsvRow } from './csv.js';
import { DateOrderEvidence, type DateOrder } from './dates.js';
import { ImportFileError, textDecoder, type TextEncoding } from './decode.js';
import {
  detectFormat,
  FORMATS,
  missingColumns,
  PLATFORM,
  rowReader,
  unmappedColumns,
  type ColumnMapping,
  type FormatName,
  type SourceRow,
} from './formats.js';
import { readRow, type ImportItem, type RowProblem } from './rules.js';
import { jsonExportRows, looksLikeJson } from './json-export.js';

/** The file's dates read both ways and the shop did not say which: the API answers 422 naming the choice. */
export class DateOrderNeeded extends ImportFileError {}

/** The header row is of no known format and no mapping was given: the API answers 422 with the file's columns. */
export class MappingNeeded extends ImportFileError {
  constructor(
    message: string,
    readonly columns: string[],
  ) {
    super(message);
  }
}

export type OpenBytes = () => AsyncIterable<Uint8Array>;

export interface ReadOptions {
  format?: FormatName | undefined;
  dateOrder?: DateOrder | undefined;
  /** WooCommerce: the shop's addresses or names; a child row by one of them is the reply to its parent. */
  replyAuthors?: readonly string[] | undefined;
  /** The shop's mapping of the columns of a file in no known format (format `mapped`). */
  mapping?: ColumnMapping | undefined;
}

export interface Analysis {
  format: FormatName;
  platform: string;
  dateOrder: DateOrder;
  /** Rows below the header (empty rows not counted). */
  rows: number;
  /** WooCommerce: the authors of child rows, so the shop can say which are its own. */
  replyAuthorsFound: string[];
  /** WooCommerce: the shop's replies by the comment they answer. */
  replies: Map<string, { text: string; date: string }>;
  /** WooCommerce: ids of the rows that are reviews (a reply to one the file lacks is a problem). */
  reviewIds: Set<string>;
  /** The header row (a mapping is remembered by it). */
  header: string[];
}

async function* csvRows(open: OpenBytes, encoding: TextEncoding): AsyncGenerator<CsvRow[]> {
  const decoder = textDecoder(encoding);
  const csv = new CsvReader();
  for await (const chunk of open()) {
    const rows = csv.push(decoder.decode(chunk, { stream: true }));
    if (rows.length) yield rows;
  }
  const last = [...csv.push(decoder.decode()), ...csv.end()];
  if (last.length) yield last;
}

/** The header and a reader of the rows after it. */
async function* sourceRows(
  open: OpenBytes,
  encoding: TextEncoding,
  given: FormatName | undefined,
  mapping: ColumnMapping | undefined,
): AsyncGenerator<{ format: FormatName; header: string[]; rows: SourceRow[] }> {
  // Our own JSON export: named, or found by its first character (json-export.ts).
  if (given === 'export_json' || (given === undefined && !mapping && (await looksLikeJson(open, encoding)))) {
    for await (const rows of jsonExportRows(open, encoding)) yield { format: 'export_json', header: [], rows };
    return;
  }
  let read: ((cells: string[], line: number) => SourceRow) | undefined;
  let format: FormatName | undefined;
  let header: string[] = [];
  for await (const rows of csvRows(open, encoding)) {
    let from = 0;
    if (!read) {
      header = rows[0]!.cells;
      format = mapping ? 'mapped' : given === 'mapped' ? undefined : (given ?? detectFormat(header));
      if (!format) {
        throw new MappingNeeded(
          `The header row (line 1) is not one of a known export (${FORMATS.filter((f) => f !== 'mapped').join(', ')}): give a column mapping (mapping) for its columns ${header
            .slice(0, 8)
            .map((h) => JSON.stringify(h.slice(0, 40)))
            .join(', ')}${header.length > 8 ? ', …' : ''}.`,
          header.map((h) =>
            h
              .replace(/^\uFEFF/, '')
              .trim()
              .slice(0, 200),
          ),
        );
      }
      const missing = format === 'mapped' ? unmappedColumns(mapping ?? {}, header) : missingColumns(format, header);
      if (missing.length) {
        throw new ImportFileError(
          format === 'mapped'
            ? `The header row (line 1) has no column ${missing.map((m) => JSON.stringify(m)).join(', ')} (mapping).`
            : `The header row (line 1) lacks the ${format} column(s) ${missing.join(', ')}.`,
        );
      }
      read = rowReader(format, header, mapping);
      from = 1;
    }
    yield { format: format!, header, rows: rows.slice(from).map((r) => read!(r.cells, r.line)) };
  }
  if (!read) throw new ImportFileError('The file has no header row.');
}

const isShopAuthor = (row: SourceRow, authors: ReadonlySet<string>) =>
  authors.has(row.email.trim().toLowerCase()) || authors.has(row.name.trim().toLowerCase());

/** A row that is the shop's reply, imported with the review it answers: neither a review nor a problem. */
interface AttachedReply {
  line: number;
  replyTo: string;
}

export type RowOutcome = ImportItem | RowProblem | AttachedReply;

/** The first pass. Throws ImportFileError (DateOrderNeeded for dates that read both ways) when nothing may be imported. */
export async function analyse(open: OpenBytes, encoding: TextEncoding, options: ReadOptions): Promise<Analysis> {
  const evidence = new DateOrderEvidence();
  const authors = new Set((options.replyAuthors ?? []).map((a) => a.trim().toLowerCase()).filter(Boolean));
  const found = new Set<string>();
  const replies = new Map<string, { text: string; date: string }>();
  const reviewIds = new Set<string>();
  let format: FormatName | undefined;
  let header: string[] = [];
  let rows = 0;
  for await (const batch of sourceRows(open, encoding, options.format, options.mapping)) {
    format = batch.format;
    header = batch.header;
    for (const row of batch.rows) {
      rows++;
      evidence.add(row.date, row.line);
      if (!row.parentId) {
        if (row.sourceId) reviewIds.add(row.sourceId.trim());
        continue;
      }
      const who = row.email.trim() || row.name.trim();
      if (found.size < 50 && who) found.add(who);
      if (isShopAuthor(row, authors) && row.text.trim()) replies.set(row.parentId, { text: row.text, date: row.date });
    }
  }
  if (rows === 0) throw new ImportFileError('The file has a header row but no reviews.');
  const dateOrder = evidence.decide(options.dateOrder);
  if (!dateOrder) throw new DateOrderNeeded(evidence.question());
  return {
    format: format!,
    platform: PLATFORM[format!],
    dateOrder,
    rows,
    replyAuthorsFound: [...found],
    replies,
    reviewIds,
    header,
  };
}

/** The second pass: each row as a review to import or a problem, in batches as the file is read. */
export async function* importRows(
  open: OpenBytes,
  encoding: TextEncoding,
  analysis: Analysis,
  options: ReadOptions & { now: Date },
): AsyncGenerator<RowOutcome[]> {
  const authors = new Set((options.replyAuthors ?? []).map((a) => a.trim().toLowerCase()).filter(Boolean));
  const ctx = { platform: analysis.platform, order: analysis.dateOrder, now: options.now };
  for await (const batch of sourceRows(open, encoding, analysis.format, options.mapping)) {
    yield batch.rows.map((row): RowOutcome => {
      if (row.parentId) {
        const parent = row.parentId;
        if (!isShopAuthor(row, authors)) {
          return {
            line: row.line,
            reason: `a reply to comment ${parent} by ${JSON.stringify((row.name || row.email).slice(0, 60))}, not named as the shop (reply_authors): skipped`,
          };
        }
        if (!analysis.reviewIds.has(parent)) {
          return { line: row.line, reason: `the shop's reply to comment ${parent}, which the file does not hold` };
        }
        return { line: row.line, replyTo: parent };
      }
      const reply = row.sourceId ? analysis.replies.get(row.sourceId.trim()) : undefined;
      const item = readRow(reply && !row.reply ? { ...row, reply } : row, ctx);
      return item;
    });
  }
}
