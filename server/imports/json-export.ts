// Our own JSON export (server/exports: `GET …/reviews/export?format=json`, one array of review records) as an
// import file, format `export_json`: recognised by its first character that is not a space or a byte-order mark
// being `[` (or `{`: JSON, refused with the reason), or named with `format=export_json`. Read as a stream: decoded text goes in piece by piece, each element
// of the array comes out as its own text once it is complete, and only that element is parsed (JSON.parse) and
// checked (zod), so a 100 MB file is read with the memory of one piece and one review.
//
// An element that is not a review we can read (bad JSON inside balanced brackets, a missing id or rating, a field of
// the wrong type or too long) is a problem of its own, the rest is imported. A file that is not one JSON array, is cut
// short, or has an element past ELEMENT_MAX_CHARS (an unclosed string would swallow the rest of the file) imports
// nothing. `line` is the line of the file on which the element starts, as a text editor numbers it (the first line
// is 1): our export writes `[` on line 1 and one review per line, so its n-th review is on line n + 1, as the n-th row
// of the CSV export is (its header is line 1).
import { z } from 'zod';
import { ImportFileError, textDecoder, type TextEncoding } from './decode.js';
import { IMPORT_LIMITS } from './csv.js';
import { blankRow, type SourceRow } from './formats.js';

/** An element's text past this many characters ends the read (a review with 100 products' texts fits well within). */
const ELEMENT_MAX_CHARS = 1_000_000;

interface JsonElement {
  /** The line of the file on which the element starts (the first line is 1). */
  line: number;
  /** Its position in the array, from 1. */
  index: number;
  text: string;
}

/** Text in, the array's elements out: `push` decoded text, `end` at the end of the file. */
export class JsonArrayReader {
  private phase: 'start' | 'between' | 'element' | 'end' = 'start';
  private line = 1;
  /** Between elements: one was just read, so a comma or the closing bracket must come next. */
  private afterElement = false;
  private depth = 0;
  private inString = false;
  /** A backslash ended the previous piece inside a string: the piece's first character is escaped. */
  private escaped = false;
  private buffer = '';
  private elementLine = 0;
  private count = 0;

  push(text: string): JsonElement[] {
    const out: JsonElement[] = [];
    let from = 0;
    let i = 0;
    while (i < text.length) {
      if (this.phase !== 'element') {
        const c = text[i]!;
        if (c === '\n') this.line++;
        if (c === ' ' || c === '\t' || c === '\r' || c === '\n' || (c === '\uFEFF' && this.phase === 'start')) {
          i++;
          continue;
        }
        if (this.phase === 'start') {
          if (c !== '[') {
            throw new ImportFileError(
              'The file is JSON but not an array of reviews (it does not start with "["): import our JSON export as it was downloaded.',
            );
          }
          this.phase = 'between';
          i++;
          continue;
        }
        if (this.phase === 'end') {
          throw new ImportFileError(`Line ${this.line}: text after the end of the JSON array.`);
        }
        if (c === ']') {
          this.phase = 'end';
          i++;
          continue;
        }
        if (c === ',') {
          if (!this.afterElement) throw new ImportFileError(`Line ${this.line}: a comma where a review should be.`);
          this.afterElement = false;
          i++;
          continue;
        }
        if (this.afterElement) {
          throw new ImportFileError(`Line ${this.line}: a comma is missing after the review before.`);
        }
        this.phase = 'element';
        this.elementLine = this.line;
        this.depth = 0;
        this.inString = false;
        this.escaped = false;
        this.buffer = '';
        from = i;
        if (++this.count > IMPORT_LIMITS.rows) {
          throw new ImportFileError(
            `The file holds more than ${IMPORT_LIMITS.rows.toLocaleString('en')} reviews, the limit of an import: split it.`,
          );
        }
      }
      i = this.scan(text, i);
      if (this.phase === 'element') break;
      // The element ended just before `i` (a comma or the closing bracket, read next as between elements).
      const whole = this.buffer + text.slice(from, i);
      this.checkSize(whole.length);
      out.push({ line: this.elementLine, index: this.count, text: whole.trim() });
      this.buffer = '';
    }
    if (this.phase === 'element') {
      this.buffer += text.slice(from);
      this.checkSize(this.buffer.length);
    }
    return out;
  }

  /** The end of the file: throws when the array is not closed. */
  end(): void {
    if (this.phase === 'start') throw new ImportFileError('The file is empty.');
    if (this.phase !== 'end') {
      throw new ImportFileError('The JSON array is not closed: the file is cut short, or not our JSON export.');
    }
    if (this.count === 0) throw new ImportFileError('The JSON array holds no reviews.');
  }

  /**
   * Reads the element from `i` to its end (a comma or closing bracket outside strings and brackets), leaving phase
   * `between` there; or to the end of the piece, still in phase `element`. Strings are skipped by a search, not
   * character by character: a review's text is most of a file.
   */
  private scan(text: string, start: number): number {
    let i = start;
    if (this.escaped) {
      this.escaped = false;
      if (text[i] === '\n') this.line++;
      i++;
    }
    while (i < text.length) {
      if (this.inString) {
        IN_STRING.lastIndex = i;
        const m = IN_STRING.exec(text);
        if (!m) return text.length;
        i = m.index;
        const c = text[i]!;
        if (c === '\n') {
          this.line++;
          i++;
        } else if (c === '"') {
          this.inString = false;
          i++;
        } else if (i + 1 < text.length) {
          // A backslash: the next character is escaped (a quote does not end the string).
          if (text[i + 1] === '\n') this.line++;
          i += 2;
        } else {
          this.escaped = true;
          return text.length;
        }
        continue;
      }
      const c = text[i]!;
      if (c === '"') this.inString = true;
      else if (c === '\n') this.line++;
      else if (c === '{' || c === '[') this.depth++;
      else if (c === '}' || c === ']') {
        if (this.depth === 0 && c === ']') {
          this.phase = 'between';
          this.afterElement = true;
          return i;
        }
        // A stray closing brace at the top leaves the depth as it is: JSON.parse reports the element.
        if (this.depth > 0 && --this.depth === 0) {
          // An object (or array) ends with its bracket: what follows must be a comma or the array's end.
          this.phase = 'between';
          this.afterElement = true;
          return i + 1;
        }
      } else if (c === ',' && this.depth === 0) {
        this.phase = 'between';
        this.afterElement = true;
        return i;
      }
      i++;
    }
    return i;
  }

  private checkSize(chars: number): void {
    if (chars > ELEMENT_MAX_CHARS) {
      throw new ImportFileError(
        `The review starting on line ${this.elementLine} is longer than ${ELEMENT_MAX_CHARS.toLocaleString('en')} characters: is the file cut short or malformed?`,
      );
    }
  }
}

const IN_STRING = /["\\\n]/g;

const cell = z.string().max(IMPORT_LIMITS.cellChars);
const optionalCell = cell.nullish();
const date = z.string().max(100);

/**
 * A review record of our JSON export (exports/records.ts), as other installations and versions may write it: the id,
 * the rating and a date are required; unknown fields are ignored, missing ones read as empty.
 */
const exportedReview = z.object({
  id: z.union([z.int(), z.string().trim().min(1).max(200)]),
  status: z.string().max(40).nullish(),
  verified: z.boolean().nullish(),
  incentivised: z.boolean().nullish(),
  imported_from: z.string().max(200).nullish(),
  original_date: date.nullish(),
  experience_date: date.nullish(),
  created: date.nullish(),
  name: optionalCell,
  email: z.string().max(320).nullish(),
  rating: z.union([z.number(), z.string().max(20)]),
  comment: optionalCell,
  language: z.string().max(20).nullish(),
  country: z.string().max(20).nullish(),
  order: z.string().max(200).nullish(),
  products: z
    .array(
      z.object({
        id: z.string().max(200),
        name: z.string().max(500).optional(),
        url: z.string().max(2000).optional(),
        image_url: z.string().max(2000).optional(),
        sku: z.string().max(200).optional(),
        gtin: z.string().max(50).optional(),
        mpn: z.string().max(200).optional(),
        brand: z.string().max(200).optional(),
        rating: z.number().nullish(),
        comment: cell.optional(),
      }),
    )
    .max(100)
    .nullish(),
  replies: z
    .array(z.object({ text: cell, date: date.nullish() }))
    .max(100)
    .nullish(),
  photo_urls: z.array(z.string().max(2000)).max(100).nullish(),
  title: z.string().max(2000).nullish(),
});

/** The problem of an element, in a few words: the first issues zod found, with their paths. */
function problemOf(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.join('.') || 'the review'}: ${issue.message}`)
    .join('; ');
}

/** An element of the array as a row to import; a bad one as a row that is skipped with its reason. */
function rowOfElement(element: JsonElement): SourceRow {
  const skip = (why: string): SourceRow => ({
    ...blankRow(element.line),
    skip: `review ${element.index} of the array: ${why}`,
  });
  let value: unknown;
  try {
    value = JSON.parse(element.text);
  } catch {
    return skip('not valid JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return skip('not a JSON object');
  const parsed = exportedReview.safeParse(value);
  if (!parsed.success) return skip(problemOf(parsed.error));
  const r = parsed.data;
  const status = (r.status ?? '').trim();
  const reply = r.replies?.at(-1);
  if (status === 'deleted') return skip('removed at the source (status deleted): not imported');
  return {
    ...blankRow(element.line),
    kind: 'store',
    sourceId: String(r.id),
    // The date the review showed: its platform's for an imported one, else when it was written.
    date: r.original_date || r.created || '',
    rating: String(r.rating),
    title: r.title ?? '',
    text: r.comment ?? '',
    name: r.name ?? '',
    email: r.email ?? '',
    country: r.country ?? '',
    language: r.language ?? '',
    shown: status === '' || status === 'published',
    sourceStatus: status ? `status: ${status}` : '',
    reply: reply?.text.trim() ? { text: reply.text, date: reply.date ?? '' } : null,
    order: r.order ?? '',
    orderDate: r.experience_date ?? '',
    incentivised: r.incentivised ?? false,
    sourceVerified: r.verified ?? false,
    photos: r.photo_urls ?? [],
    importedFrom: (r.imported_from ?? '').trim(),
    products: r.products ?? [],
  };
}

/**
 * Whether the file's first character that is not a space (or a byte-order mark) is `[` (a JSON array) or `{` (JSON,
 * but not our export: refused by the reader with that reason rather than read as a CSV header).
 */
export async function looksLikeJson(open: () => AsyncIterable<Uint8Array>, encoding: TextEncoding) {
  const decoder = textDecoder(encoding);
  for await (const chunk of open()) {
    const first = /[^\s\uFEFF]/.exec(decoder.decode(chunk, { stream: true }));
    if (first) return first[0] === '[' || first[0] === '{';
  }
  return false;
}

/** The rows of a JSON export, a batch per piece of the file. */
export async function* jsonExportRows(
  open: () => AsyncIterable<Uint8Array>,
  encoding: TextEncoding,
): AsyncGenerator<SourceRow[]> {
  const decoder = textDecoder(encoding);
  const reader = new JsonArrayReader();
  for await (const chunk of open()) {
    const elements = reader.push(decoder.decode(chunk, { stream: true }));
    if (elements.length) yield elements.map(rowOfElement);
  }
  const last = reader.push(decoder.decode());
  reader.end();
  if (last.length) yield last.map(rowOfElement);
}
