// The client a per-address rate limit counts. An IPv6 subscriber is normally given a whole /64 and can use any
// address in it, so counting each /128 apart would let one client start over at will; the /64 is the client.
import type { Context } from 'koa';
import { parseV6 } from '../ip.js';

const hex = (bytes: number[], word: number) => ((bytes[2 * word]! << 8) | bytes[2 * word + 1]!).toString(16);

/**
 * The rate-limit key of a client address: an IPv4 address as it is, an IPv4-mapped IPv6 address (`::ffff:a.b.c.d`,
 * how a dual-stack socket reports IPv4 clients) as its IPv4 address, any other IPv6 address as its /64.
 * Anything else (what a proxy header may hold) is kept as it is.
 */
export function clientKey(ip: string): string {
  const bytes = parseV6(ip);
  if (!bytes) return ip;
  const mapped = bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff;
  if (mapped) return bytes.slice(12).join('.');
  return `${[0, 1, 2, 3].map((word) => hex(bytes, word)).join(':')}::/64`;
}

/** The key of rateLimit for limits per client (an IPv6 /64 counts as one client). */
export const byClientAddress = (ctx: Context): string => clientKey(ctx.ip);
