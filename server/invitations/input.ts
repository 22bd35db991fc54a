// Add invitation's input, as shop plugins really send it (see compatibility.md): numbers as strings, empty strings
// for "not given", PHP bracket arrays, a lenient `order_data` JSON string. Pure functions: the route does the I/O.
import { asList, type Fields } from '../http/body.js';
import { ClassicError } from '../http/errors.js';
import { intParam, stringParam } from '../http/params.js';
import { normalizeLanguage, type Language } from '../languages.js';
import type { InvitationProduct } from './model.js';
import { isValidEmail, normalizeEmail } from '../email.js';
import { productsJson } from './order-data.js';
import { MESSAGES } from '../http/classic.js';
import { INVITE_DELAY_MAX_DAYS, ORDER_NUMBER_MAX } from '../../embed/shared/limits.js';

export interface InvitationInput {
  email: string;
  /** '' when the shop sent no order number. */
  order: string;
  language: Language;
  delay: number;
  customerName: string;
  products: InvitationProduct[];
  client: string | null;
  platformVersion: string | null;
  pluginVersion: string | null;
  /** At most this many invitations per address for the shop; null for no limit. */
  maxPerEmail: number | null;
  /** `incentivised=1`: the shop offers something for the review; its review is labelled so (issue 11). */
  incentivised?: boolean;
}

export const MAX_PRODUCTS = 100;

/** Reads and checks the fields; throws ClassicError with a message naming the field. Unknown fields are ignored. */
export function parseInvitationInput(params: Fields, shopLanguage: Language): InvitationInput {
  const rawEmail = stringParam(params.email, 'email')?.trim();
  if (!rawEmail) throw new ClassicError(MESSAGES.missing);
  const email = normalizeEmail(rawEmail);
  if (!isValidEmail(email)) throw new ClassicError('The parameter email must be a valid e-mail address.');

  // Exact string, so `000123` keeps its zeros; only the blanks a form field picks up are dropped.
  const order = stringParam(params.order, 'order')?.trim() ?? '';
  if (order.length > ORDER_NUMBER_MAX) {
    throw new ClassicError(`The parameter order must be at most ${ORDER_NUMBER_MAX} characters.`);
  }

  const max = intParam(params.max_invitations_per_email, 'max_invitations_per_email', {
    min: 0,
    max: 1_000_000,
    fallback: 0,
  });

  return {
    email,
    order,
    language: normalizeLanguage(params.language) ?? shopLanguage,
    delay: intParam(params.delay, 'delay', { min: 0, max: INVITE_DELAY_MAX_DAYS, fallback: 0 }),
    customerName: text(params.customer_name, 200),
    products: parseOrderData(params.order_data),
    client: text(params.client, 100) || null,
    platformVersion: text(params.platform_version, 100) || null,
    pluginVersion: text(params.plugin_version, 100) || null,
    // Plugins send 0 from an unset setting: that means no limit, not "never invite".
    maxPerEmail: max > 0 ? max : null,
    incentivised: flagParam(params.incentivised, 'incentivised'),
  };
}

/** An optional 0/1 flag (also `true`/`false`, as some clients send booleans); absent or empty is 0. */
function flagParam(value: unknown, name: string): boolean {
  const raw = stringParam(value, name)?.trim().toLowerCase() ?? '';
  if (raw === '' || raw === '0' || raw === 'false') return false;
  if (raw === '1' || raw === 'true') return true;
  throw new ClassicError(`The parameter ${name} must be 0 or 1.`);
}

/**
 * The products of `order_data`: a JSON string (or, from a bracket-encoding client, an already-nested object).
 * Anything unreadable gives no products; it never rejects the invitation. Of a JSON string only `products` is
 * parsed, and only its first entries (see productsJson). Customer and address data are not read.
 */
export function parseOrderData(value: unknown): InvitationProduct[] {
  let list: unknown[] | undefined;
  if (typeof value === 'string') {
    const json = productsJson(value);
    if (json === undefined) return [];
    try {
      list = asList(JSON.parse(json));
    } catch {
      return [];
    }
  } else if (typeof value === 'object' && value !== null && !Array.isArray(value))
    list = asList((value as Fields).products);
  const products: InvitationProduct[] = [];
  const seen = new Set<string>();
  for (const item of list ?? []) {
    const product = parseProduct(item);
    if (!product || seen.has(product.external_id)) continue;
    seen.add(product.external_id);
    products.push(product);
    if (products.length === MAX_PRODUCTS) break;
  }
  return products;
}

/** One product, or undefined when it lacks an id or a name. */
function parseProduct(value: unknown): InvitationProduct | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const p = value as Fields;
  const externalId = text(p.id, 200) || text(p.product_id, 200);
  const name = text(p.name, 500);
  if (!externalId || !name) return undefined;
  return {
    external_id: externalId,
    name,
    url: httpUrl(p.url),
    image_url: httpUrl(p.image_url) || httpUrl(asList(p.image_urls)?.[0]),
    sku: text(p.sku, 200),
    gtin: text(p.gtin, 50),
    mpn: text(p.mpn, 200),
    brand: text(p.brand, 200),
  };
}

// Blanks (white space and control characters) and what lies between them, matched where the last match ended.
const BLANKS = /[\s\u0000-\u001f\u007f]*/y;
const WORD = /[^\s\u0000-\u001f\u007f]+/y;

/**
 * A string or number as single-line text (blank runs become one space, none at the ends), at most `max`
 * characters; anything else is ''. Word by word until `max`: replacing every blank run of a 4 MB value took seconds.
 */
export function text(value: unknown, max: number): string {
  let s: string;
  if (typeof value === 'string') s = value;
  else if (typeof value === 'number' && Number.isFinite(value)) s = String(value);
  else return '';
  let out = '';
  for (let at = skipBlanks(s, 0); at < s.length && out.length < max; ) {
    WORD.lastIndex = at;
    const word = WORD.exec(s)![0];
    out += out ? ` ${word}` : word;
    at = skipBlanks(s, at + word.length);
  }
  return out.slice(0, max);
}

function skipBlanks(s: string, from: number): number {
  BLANKS.lastIndex = from;
  BLANKS.exec(s);
  return BLANKS.lastIndex;
}

/**
 * An http(s) URL or ''. Other schemes (javascript:, data:) could end up as links in e-mails and pages.
 * Protocol-relative `//cdn…` addresses, which some shops send for images, become https.
 */
export function httpUrl(value: unknown): string {
  if (typeof value !== 'string') return '';
  const trimmed = value.trim();
  if (!trimmed || trimmed.length > 2000) return '';
  try {
    const url = new URL(trimmed.startsWith('//') ? `https:${trimmed}` : trimmed);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : '';
  } catch {
    return '';
  }
}
