// A streaming CSV reader for imported review files: decoded text goes in piece by piece, complete rows come out, and
// nothing of a row is kept once it is handed out (a 100 MB file is read with the memory of one piece). The delimiter
// (comma, semicolon or tab) is the one the header row holds most of outside quotes; RFC 4180 quotes: cells may hold
// delimiters, line breaks and doubled quotes. The limits of an import are enforced here: a row or cell past them ends
// the read (ImportFileError), since an unclosed quote would otherwise swallow the rest of the file as one cell.
import { ImportFileError } from './decode.js';

export const IMPORT_LIMITS = {
  bytes: 100 * 1024 * 1024,
  rows: 200_000,
  cellChars: 20_000,
  columns: 100,
} as const;

export interface CsvRow {
  /** The row as a spreadsheet numbers it: the header is line 1; a row with line breaks in quotes is one line. */
  line: number;
  cells: string[];
}

type Delimiter = ',' | ';' | '\t';

/** The delimiter of a header line: of comma, semicolon and tab, the one it has most of outside quotes (comma on a tie). */
export function delimiterOf(headerLine: string): Delimiter {
  const counts = { ',': 0, ';': 0, '\t': 0 };
  let quoted = false;
  for (const c of headerLine) {
    if (c === '"') quoted = !quoted;
    else if (!quoted && (c === ',' || c === ';' || c === '\t')) counts[c]++;
  }
  if (counts['\t'] > counts[','] && counts['\t'] >= counts[';']) return '\t';
  return counts[';'] > counts[','] ? ';' : ',';
}

/** The characters that end or open something outside quotes, per delimiter. */
const SPECIAL: Record<Delimiter, RegExp> = { ',': /[,\r\n"]/g, ';': /[;\r\n"]/g, '\t': /[\t\r\n"]/g };

const HEADER_MAX_CHARS = IMPORT_LIMITS.columns * 200;

/** Text in, rows out: `push` decoded text, `end` at the end of the file. Rows that are all empty are skipped. */
export class CsvReader {
  private delimiter: Delimiter | null = null;
  private pending = '';
  private cell = '';
  private cells: string[] = [];
  private quoted = false;
  /** A quote was just closed inside a quoted cell: the next quote makes it a doubled quote. */
  private afterQuote = false;
  /** The previous character ended a row with \r: a \n right after it belongs to that line end. */
  private afterCr = false;
  private line = 0;
  private rows = 0;

  push(text: string): CsvRow[] {
    if (this.delimiter === null) {
      this.pending += text;
      const end = firstLineEnd(this.pending);
      if (end < 0) {
        if (this.pending.length > HEADER_MAX_CHARS)
          throw new ImportFileError('The header row is too long: is this a CSV file?');
        return [];
      }
      this.delimiter = delimiterOf(this.pending.slice(0, end));
      text = this.pending;
      this.pending = '';
    }
    return this.scan(text);
  }

  end(): CsvRow[] {
    if (this.delimiter === null) {
      if (!this.pending) return [];
      this.delimiter = delimiterOf(this.pending);
      const rows = this.scan(this.pending);
      this.pending = '';
      return [...rows, ...this.finishRow()];
    }
    if (this.quoted && !this.afterQuote) {
      throw new ImportFileError(`Line ${this.line + 1}: a quoted cell is not closed before the end of the file.`);
    }
    return this.cell || this.cells.length ? this.finishRow() : [];
  }

  private scan(text: string): CsvRow[] {
    const out: CsvRow[] = [];
    const d = this.delimiter!;
    const special = SPECIAL[d];
    let start = 0;
    for (let i = 0; i < text.length; i++) {
      // Jump to the next character that matters (natively: a 25 MB file is read in a fraction of the time).
      if (!this.afterCr && !this.afterQuote) {
        if (this.quoted) {
          const j = text.indexOf('"', i);
          if (j < 0) break;
          i = j;
        } else {
          special.lastIndex = i;
          const m = special.exec(text);
          if (!m) break;
          i = m.index;
        }
      }
      const c = text[i]!;
      if (this.afterCr) {
        this.afterCr = false;
        if (c === '\n') {
          start = i + 1;
          continue;
        }
      }
      if (this.quoted) {
        if (this.afterQuote) {
          this.afterQuote = false;
          if (c === '"') {
            this.take('"');
            start = i + 1;
            continue;
          }
          this.quoted = false;
          // falls through: the character after a closing quote is read outside quotes
        } else {
          if (c === '"') {
            this.take(text.slice(start, i));
            this.afterQuote = true;
            start = i + 1;
          }
          continue;
        }
      }
      if (c === '"' && this.cell === '' && i === start) {
        this.quoted = true;
        start = i + 1;
      } else if (c === d) {
        this.take(text.slice(start, i));
        this.endCell();
        start = i + 1;
      } else if (c === '\n' || c === '\r') {
        this.take(text.slice(start, i));
        out.push(...this.finishRow());
        this.afterCr = c === '\r';
        start = i + 1;
      }
    }
    this.take(text.slice(start));
    return out;
  }

  private take(part: string): void {
    if (!part) return;
    this.cell += part;
    if (this.cell.length > IMPORT_LIMITS.cellChars) {
      throw new ImportFileError(
        `Line ${this.line + 1}: a cell is longer than ${IMPORT_LIMITS.cellChars.toLocaleString('en')} characters (is a quote not closed?).`,
      );
    }
  }

  private endCell(): void {
    this.cells.push(this.cell);
    this.cell = '';
    this.quoted = false;
    this.afterQuote = false;
    if (this.cells.length > IMPORT_LIMITS.columns) {
      throw new ImportFileError(`Line ${this.line + 1}: more than ${IMPORT_LIMITS.columns} columns.`);
    }
  }

  private finishRow(): CsvRow[] {
    this.endCell();
    this.line++;
    const cells = this.cells;
    this.cells = [];
    if (cells.every((c) => c.trim() === '')) return [];
    if (++this.rows > IMPORT_LIMITS.rows + 1) {
      throw new ImportFileError(`The file has more than ${IMPORT_LIMITS.rows.toLocaleString('en')} rows.`);
    }
    return [{ line: this.line, cells }];
  }
}

function firstLineEnd(text: string): number {
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') quoted = !quoted;
    else if (!quoted && (c === '\n' || c === '\r')) return i;
  }
  return -1;
}
