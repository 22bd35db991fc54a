// Writing CSV for spreadsheets (RFC 4180: comma, CRLF, quotes doubled, a cell quoted when it holds a comma, a quote
// or a line break), UTF-8 with a byte-order mark so that Excel reads the accents right. Shared plumbing: the review
// and invitation exports and the compliance report write with it, and imports read our own export back by its rule.
//
// A cell a spreadsheet would take for a formula (it starts with `=`, `+`, `-`, `@`, a tab or a carriage return) is
// made inert with a leading `'`: a reviewer's comment `=HYPERLINK("http://evil","click")` must stay text in the
// merchant's spreadsheet. So that the `'` can be taken off again on import without losing anything, a cell that
// already starts with apostrophes before such a character gets one more: the rule back is "a cell matching
// /^'+[=+\-@\t\r]/ loses its first `'`" (INERT_PREFIXED). Pure: no I/O.

/** The UTF-8 byte-order mark, first in the file. */
export const BOM = '\uFEFF';

const FORMULA_START = /^'*[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/** What an import of our own CSV matches to take the inert prefix off (the first `'`). */
export const INERT_PREFIXED = /^'+[=+\-@\t\r]/;

/** One cell as written: text made inert and quoted as needed; numbers and booleans as they are; null as empty. */
export function csvCell(value: string | number | boolean | null): string {
  if (value === null) return '';
  if (typeof value !== 'string') return String(value);
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** A record: its cells, comma-separated, ending with CRLF. */
export function csvLine(cells: readonly (string | number | boolean | null)[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}
