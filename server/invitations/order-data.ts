// Finding the products in Add invitation's order_data without parsing the rest. The field may hold up to 4 MB of
// JSON (customer, addresses, extras a plugin adds); parsing all of it took seconds for 4 MB of small objects or
// distinct keys, while only the first products are ever used.
import { BODY_CAPS } from '../http/body.js';

/** Products entries read at most: ten times the products kept, for entries that are skipped as unusable. */
export const PRODUCT_ENTRIES = 1000;

const [QUOTE, BACKSLASH, COMMA, COLON] = [0x22, 0x5c, 0x2c, 0x3a];
const [OPEN_OBJECT, OPEN_ARRAY, CLOSE_OBJECT, CLOSE_ARRAY] = [0x7b, 0x5b, 0x7d, 0x5d];
const isOpen = (c: number) => c === OPEN_OBJECT || c === OPEN_ARRAY;
const isClose = (c: number) => c === CLOSE_OBJECT || c === CLOSE_ARRAY;

/**
 * The JSON text of the top-level `products` value (an array, or an object keyed by index as PHP writes arrays),
 * cut after its first PRODUCT_ENTRIES entries or before the entry that takes it past BODY_CAPS.fields values.
 * Undefined when there is no such value, or when the text nests deeper than BODY_CAPS.depth anywhere. One pass;
 * like JSON.parse, the last of repeated `products` keys counts. The rest of the text is not checked.
 */
export function productsJson(text: string): string | undefined {
  let found: string | undefined;
  let depth = 0;
  let topIsObject = false;
  for (let i = skipSpace(text, 0); i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const end = stringEnd(text, i);
      const after = skipSpace(text, end + 1);
      if (depth === 1 && topIsObject && text.charCodeAt(after) === COLON && isProductsKey(text.slice(i + 1, end))) {
        const value = skipSpace(text, after + 1);
        if (!isOpen(text.charCodeAt(value))) {
          found = undefined;
          i = end;
          continue;
        }
        const cut = cutEntries(text, value, depth);
        if (!cut) return undefined;
        found = cut.json;
        i = cut.end; // the value's closing bracket: depth is 1 again after it
        continue;
      }
      i = end;
    } else if (isOpen(c)) {
      if (depth === 0) topIsObject = c === OPEN_OBJECT;
      if (++depth > BODY_CAPS.depth) return undefined;
    } else if (isClose(c)) depth--;
  }
  return found;
}

/**
 * The value opening at `start` (depth `outer` around it), cut as productsJson says, and the index of its closing
 * bracket (or the end of the text); undefined when it nests too deep.
 */
function cutEntries(text: string, start: number, outer: number): { json: string; end: number } | undefined {
  const close = text.charCodeAt(start) === OPEN_OBJECT ? '}' : ']';
  let depth = 1;
  let entries = 0;
  let fields = 1;
  let cutAt = -1; // where the kept entries end, once an entry is left out
  let lastBoundary = start + 1; // after the last entry within the limits
  const entryEnds = (at: number) => {
    entries++;
    if (cutAt < 0 && (entries > PRODUCT_ENTRIES || fields > BODY_CAPS.fields)) cutAt = lastBoundary;
    else if (cutAt < 0) lastBoundary = at;
  };
  let i = start + 1;
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) i = stringEnd(text, i);
    else if (isOpen(c)) {
      if (outer + ++depth > BODY_CAPS.depth) return undefined;
      fields++;
    } else if (isClose(c)) {
      if (--depth === 0) {
        if (text.slice(lastBoundary, i).trim() !== '') entryEnds(i);
        break;
      }
    } else if (c === COMMA) {
      fields++;
      if (depth === 1) entryEnds(i);
    }
  }
  return { json: `${text.slice(start, cutAt < 0 ? lastBoundary : cutAt)}${close}`, end: i };
}

/** Whether a key's raw text (between its quotes) is `products`, escapes included. */
function isProductsKey(raw: string): boolean {
  if (raw === 'products') return true;
  if (!raw.includes('\\') || raw.length > 64) return false;
  try {
    return JSON.parse(`"${raw}"`) === 'products';
  } catch {
    return false;
  }
}

/** The index of the quote closing the string that opens at `start`, or the end of the text. */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === BACKSLASH) i++;
    else if (c === QUOTE) return i;
  }
  return text.length;
}

function skipSpace(text: string, from: number): number {
  let i = from;
  while (i < text.length && (text[i] === ' ' || text[i] === '\n' || text[i] === '\r' || text[i] === '\t')) i++;
  return i;
}
