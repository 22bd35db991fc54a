// Finding the products in Add invitation's order_data without parsing the rest. The field may hold up to 4 MB of
// JSON (customer, addresses, extras a plugin adds); parsing all of it took seconds for 4 MB of small objects or
// distinct keys, while only the first products are ever used.
import { BODY_CAPS, stringEnd } from '../http/body.js';

/** Products entries read at most: ten times the products kept, for entries that are skipped as unusable. */
export const PRODUCT_ENTRIES = 1000;

const [QUOTE, COMMA, COLON] = [0x22, 0x2c, 0x3a];
const [OPEN_OBJECT, OPEN_ARRAY, CLOSE_OBJECT, CLOSE_ARRAY] = [0x7b, 0x5b, 0x7d, 0x5d];
const isOpen = (c: number) => c === OPEN_OBJECT || c === OPEN_ARRAY;
const isClose = (c: number) => c === CLOSE_OBJECT || c === CLOSE_ARRAY;

/**
 * The JSON text of the top-level `products` value (an array, or an object keyed by index as PHP writes arrays),
 * cut after its first PRODUCT_ENTRIES entries or before the entry that takes it past BODY_CAPS.fields values.
 * Undefined when there is no such value or it nests deeper than BODY_CAPS.depth. One pass that stops where the
 * products are cut; the rest of the text is neither read nor checked (a repeated `products` key is not looked for:
 * encoders never write one).
 */
export function productsJson(text: string): string | undefined {
  let depth = 0;
  let topIsObject = false;
  for (let i = skipSpace(text, 0); i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const end = stringEnd(text, i);
      const after = skipSpace(text, end + 1);
      if (depth === 1 && topIsObject && text.charCodeAt(after) === COLON && isProductsKey(text.slice(i + 1, end))) {
        const value = skipSpace(text, after + 1);
        return isOpen(text.charCodeAt(value)) ? cutEntries(text, value) : undefined;
      }
      i = end;
    } else if (isOpen(c)) {
      if (depth++ === 0) topIsObject = c === OPEN_OBJECT;
    } else if (isClose(c)) depth--;
  }
  return undefined;
}

/** The products value opening at `start`, cut as productsJson says; undefined when it nests too deep. */
function cutEntries(text: string, start: number): string | undefined {
  const close = text.charCodeAt(start) === OPEN_OBJECT ? '}' : ']';
  // The products value is at the second level of the order data.
  let depth = 2;
  let entries = 0;
  let fields = 1;
  let kept = start + 1; // where the entries read so far end
  for (let i = start + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) i = stringEnd(text, i);
    else if (isOpen(c)) {
      if (++depth > BODY_CAPS.depth) return undefined;
      fields++;
    } else if (c === COMMA || (isClose(c) && --depth === 1)) {
      if (c === COMMA) fields++;
      if (depth > 2) continue;
      // An entry ends here (or the value, when nothing is left between the last comma and the bracket).
      const empty = isClose(c) && text.slice(kept, i).trim() === '';
      if (!empty && (++entries > PRODUCT_ENTRIES || fields > BODY_CAPS.fields)) break;
      kept = i;
      if (isClose(c)) break;
    }
  }
  return `${text.slice(start, kept)}${close}`;
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

function skipSpace(text: string, from: number): number {
  let i = from;
  while (i < text.length && (text[i] === ' ' || text[i] === '\n' || text[i] === '\r' || text[i] === '\t')) i++;
  return i;
}
