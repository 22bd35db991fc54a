// The optional `signature` of the order-data element on thank-you pages: lowercase hex HMAC-SHA512 keyed with
// "<webshopId>:<apiCode>" over PHP's http_build_query of the fields in a fixed order (null fields left out).
// Shop plugins compute it in PHP, so we reproduce PHP's encoding exactly.
import { createHmac } from 'node:crypto';
import { safeEqual } from '../http/credentials.js';

const SIGNED_FIELDS = ['webshopId', 'orderNumber', 'email', 'firstName', 'inviteDelay'] as const;
export type OrderFields = Partial<Record<(typeof SIGNED_FIELDS)[number], string | number | boolean | null>>;

/**
 * PHP's urlencode(): like encodeURIComponent, but spaces become `+` and `!'()*~` are percent-encoded too. A lone
 * surrogate (JSON can carry `\ud800`; PHP never signs one) is encoded as U+FFFD, where encodeURIComponent throws.
 */
export function phpUrlencode(value: string): string {
  return encodeURIComponent(value.replace(/\p{Cs}/gu, '\ufffd'))
    .replace(/[!'()*~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');
}

/** PHP's http_build_query() of the signed fields, in their fixed order. */
export function signedQuery(fields: OrderFields): string {
  const parts: string[] = [];
  for (const key of SIGNED_FIELDS) {
    const value = fields[key];
    if (value === null || value === undefined) continue;
    const text = typeof value === 'boolean' ? (value ? '1' : '0') : String(value);
    parts.push(`${key}=${phpUrlencode(text)}`);
  }
  return parts.join('&');
}

export function orderSignature(fields: OrderFields, webshopId: number, apiCode: string): string {
  return createHmac('sha512', `${webshopId}:${apiCode}`).update(signedQuery(fields)).digest('hex');
}

export function verifyOrderSignature(
  fields: OrderFields,
  signature: string,
  webshopId: number,
  apiCode: string,
): boolean {
  return safeEqual(signature.toLowerCase(), orderSignature(fields, webshopId, apiCode));
}
