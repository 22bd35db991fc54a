// The order-data element on thank-you pages (`<script id="service_order_completed">`), in every shape shop
// plugins print it (see compatibility.md): typed or untyped script, pretty or minified JSON, HTML-entity-escaped
// JSON, numbers as strings, an optional signature. Entities are decoded with a fixed table, never by handing the
// text to the HTML parser: the element's content is untrusted and must not become markup.
import { ORDER_NUMBER_MAX } from './limits.js';

/** The signed fields exactly as the shop printed them: the server recomputes the signature over these. */
export interface OrderData {
  webshopId: number | string;
  orderNumber: string | number;
  email?: string | null;
  firstName?: string | null;
  inviteDelay?: number | string | null;
}

export interface ParsedOrder {
  order: OrderData;
  /** Lowercase hex HMAC-SHA512, when the element carried one. */
  signature?: string;
  /** The webshop id as a number. */
  shopId: number;
  /** The order number as text (the key under which the choice is remembered). */
  orderNumber: string;
  /** Days before the shop's invitation (or the edit e-mail) may go out; 5 when the element has none. */
  inviteDelay: number;
}

// What PHP's htmlspecialchars()/htmlentities() and template engines produce for JSON text; numeric ones are computed.
const NAMED: Record<string, string> = { quot: '"', amp: '&', apos: "'", lt: '<', gt: '>', nbsp: '\u00a0' };

/** Decodes `&quot;`-style named entities from the table and numeric ones (`&#34;`, `&#x22;`); leaves others. */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]{2,6});/gi, (whole, body: string) => {
    if (body[0] === '#') {
      const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED[body.toLowerCase()] ?? whole;
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The element's text as an object: plain JSON, else entity-decoded (once, or twice for double escaping). */
function readOrderJson(raw: string): Record<string, unknown> | undefined {
  let text = raw
    .trim()
    .replace(/^(<!\[CDATA\[|<!--)/, '')
    .replace(/(\]\]>|-->)$/, '')
    .trim();
  for (let round = 0; round < 3; round++) {
    const value = parseJson(text);
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
    const decoded = decodeEntities(text);
    if (decoded === text) return undefined;
    text = decoded.trim();
  }
  return undefined;
}

/** A whole number given as a number or as digits in a string. */
function wholeNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? value : undefined;
  if (typeof value === 'string' && /^\s*\d{1,15}\s*$/.test(value)) return Number(value);
  return undefined;
}

const absent = (v: unknown) => v === undefined || v === null || v === '';
const textOrAbsent = (v: unknown, max: number) => absent(v) || (typeof v === 'string' && v.length <= max);

/**
 * The order data, or undefined when the element cannot be used: no webshop id or order number, a field of the
 * wrong type, or a signature that is not 128 hex digits (which can never verify). The optional fields are passed on
 * exactly as printed, empty and null ones included: PHP's http_build_query signs `email=` but leaves out null.
 */
export function parseOrderData(raw: string): ParsedOrder | undefined {
  const json = readOrderJson(raw);
  if (!json) return undefined;
  const { webshopId, orderNumber, inviteDelay, signature } = json;
  const shopId = wholeNumber(webshopId);
  const number =
    typeof orderNumber === 'number'
      ? wholeNumber(orderNumber)
      : typeof orderNumber === 'string'
        ? orderNumber.trim()
        : '';
  const delay = wholeNumber(inviteDelay);
  if (!shopId || number === undefined || number === '' || String(orderNumber).length > ORDER_NUMBER_MAX)
    return undefined;
  if (!textOrAbsent(json.email, 320) || !textOrAbsent(json.firstName, 200)) return undefined;
  if (delay === undefined && !absent(inviteDelay)) return undefined;
  const hex = typeof signature === 'string' ? signature.trim().toLowerCase() : '';
  if (!absent(signature) && !/^[0-9a-f]{128}$/.test(hex)) return undefined;

  const order = { webshopId, orderNumber } as OrderData;
  for (const key of ['email', 'firstName', 'inviteDelay'] as const) {
    if (json[key] !== undefined) (order as unknown as Record<string, unknown>)[key] = json[key];
  }
  const parsed: ParsedOrder = { order, shopId, orderNumber: String(number), inviteDelay: Math.min(delay ?? 5, 365) };
  if (hex) parsed.signature = hex;
  return parsed;
}
