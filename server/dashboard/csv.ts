// A streaming CSV reader for the invitation upload: bytes go in as they arrive, records come out as soon as they
// are complete, and nothing is kept of a record once it is handed out. Spreadsheets save CSV in two dialects that
// matter here: `,` (English locales) and `;` (Dutch, German, …: the comma is their decimal mark), UTF-8 with or
// without a byte-order mark, CRLF or LF line ends, RFC 4180 quotes (`"a ""b"", c"`, line breaks inside quotes).
// The delimiter is read from the header row: the one of the two that occurs more often outside quotes.
//
// A problem inside a record (an unclosed quote at the end of the file, text after a closing quote, a field or a
// record past the limits) marks that record with an error and the reader carries on with the next line: one bad
// row must not cost the others. Pure: no I/O, no clock.

export interface CsvRecord {
  /** The row as a spreadsheet numbers it: the header is row 1. A record with line breaks in quotes is one row. */
  row: number;
  fields: string[];
  /** Why the record could not be read; its fields are then incomplete. */
  error?: string;
}

interface CsvLimits {
  /** Characters in one field. */
  fieldChars: number;
  /** Fields in one record. */
  fields: number;
}

const DEFAULT_CSV_LIMITS: CsvLimits = { fieldChars: 1000, fields: 50 };

/** The header row is read whole before the delimiter is known; a longer one is not a CSV we can use. */
const HEADER_MAX_CHARS = 64 * 1024;

type Delimiter = ',' | ';';

/** The delimiter of a header line: `;` when it has more semicolons than commas outside quotes, else `,`. */
export function delimiterOf(headerLine: string): Delimiter {
  let commas = 0;
  let semicolons = 0;
  let quoted = false;
  for (const c of headerLine) {
    if (c === '"') quoted = !quoted;
    else if (!quoted && c === ',') commas++;
    else if (!quoted && c === ';') semicolons++;
  }
  return semicolons > commas ? ';' : ',';
}

/** Where the first line break outside quotes is in `text`, or -1. */
function lineEnd(text: string): number {
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') quoted = !quoted;
    else if (!quoted && (c === '\n' || c === '\r')) return i;
  }
  return -1;
}

/** Text in, records out. Feed it decoded text with `push`; `end` flushes the last record. */
export class CsvParser {
  private delimiter: Delimiter | null = null;
  /** Text held until the header row is complete (the delimiter is not known before). */
  private pending = '';
  private row = 1;
  private fields: string[] = [];
  private field = '';
  private state: 'start' | 'unquoted' | 'quoted' | 'quoteInQuoted' | 'afterQuoted' = 'start';
  private error: string | undefined;
  /** A CR was the last character seen: an LF right after it belongs to the same line end. */
  private afterCr = false;
  /** Whether the current record has any character (an empty line is no record). */
  private started = false;

  constructor(private readonly limits: CsvLimits = DEFAULT_CSV_LIMITS) {}

  /** The delimiter in use; null until the header row is complete. */
  get detected(): Delimiter | null {
    return this.delimiter;
  }

  push(text: string): CsvRecord[] {
    if (this.delimiter === null) {
      this.pending += text;
      const end = lineEnd(this.pending);
      if (end === -1) {
        if (this.pending.length > HEADER_MAX_CHARS)
          throw new CsvFileError(`the header row is longer than ${HEADER_MAX_CHARS} characters`);
        return [];
      }
      this.delimiter = delimiterOf(this.pending.slice(0, end));
      text = this.pending;
      this.pending = '';
    }
    const out: CsvRecord[] = [];
    for (let i = 0; i < text.length; i++) this.take(text[i]!, out);
    return out;
  }

  end(): CsvRecord[] {
    const out: CsvRecord[] = [];
    if (this.delimiter === null) {
      if (!this.pending) return out;
      this.delimiter = delimiterOf(this.pending);
      const text = this.pending;
      this.pending = '';
      for (let i = 0; i < text.length; i++) this.take(text[i]!, out);
    }
    if (this.state === 'quoted') this.error ??= 'a quoted field is not closed (a " is missing)';
    if (this.started) this.finishRecord(out);
    return out;
  }

  private take(c: string, out: CsvRecord[]): void {
    if (this.afterCr) {
      this.afterCr = false;
      if (c === '\n') return;
    }
    switch (this.state) {
      case 'quoted':
        if (c === '"') this.state = 'quoteInQuoted';
        else this.append(c);
        return;
      case 'quoteInQuoted':
        if (c === '"') {
          this.append('"');
          this.state = 'quoted';
          return;
        }
        this.state = 'afterQuoted';
        break;
      default:
        break;
    }
    if (c === '\r' || c === '\n') {
      this.afterCr = c === '\r';
      if (this.started) this.finishRecord(out);
      else this.row++;
      return;
    }
    this.started = true;
    if (c === this.delimiter) {
      this.finishField();
      return;
    }
    if (this.state === 'start') {
      if (c === '"') {
        this.state = 'quoted';
        return;
      }
      this.state = 'unquoted';
    } else if (this.state === 'afterQuoted') {
      // `"a"b`: spreadsheets never write this; a hand-edited file did. Say where rather than guess.
      this.error ??= `text after a closing quote in field ${this.fields.length + 1}`;
      return;
    }
    // A quote inside an unquoted field is kept as it is, as spreadsheets read it.
    this.append(c);
  }

  private append(c: string): void {
    if (this.field.length >= this.limits.fieldChars) {
      this.error ??= `field ${this.fields.length + 1} is longer than ${this.limits.fieldChars} characters`;
      return;
    }
    this.field += c;
  }

  private finishField(): void {
    if (this.fields.length >= this.limits.fields) this.error ??= `more than ${this.limits.fields} fields`;
    else this.fields.push(this.field);
    this.field = '';
    this.state = 'start';
  }

  private finishRecord(out: CsvRecord[]): void {
    this.finishField();
    out.push(
      this.error === undefined
        ? { row: this.row, fields: this.fields }
        : { row: this.row, fields: this.fields, error: this.error },
    );
    this.row++;
    this.fields = [];
    this.error = undefined;
    this.started = false;
  }
}

/** The file cannot be taken as a whole (no usable header, not UTF-8, over a limit, broken off): nothing in it is queued. */
export class CsvFileError extends Error {}

/**
 * Bytes in, records out: UTF-8 decoding that holds a character split between two chunks, drops a leading BOM, and
 * refuses bytes that are not UTF-8 (a file saved as Windows-1252 would otherwise queue garbled names).
 */
export class CsvByteReader {
  private readonly decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
  readonly parser: CsvParser;

  constructor(limits?: CsvLimits) {
    this.parser = new CsvParser(limits);
  }

  push(chunk: Uint8Array): CsvRecord[] {
    return this.parser.push(this.decode(chunk, true));
  }

  end(): CsvRecord[] {
    const rest = this.decode(new Uint8Array(0), false);
    return [...this.parser.push(rest), ...this.parser.end()];
  }

  private decode(chunk: Uint8Array, stream: boolean): string {
    try {
      return this.decoder.decode(chunk, { stream });
    } catch {
      throw new CsvFileError('the file is not UTF-8 text: save it as "CSV UTF-8"');
    }
  }
}
