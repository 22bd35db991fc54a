// `shared_network`, the pure part: the network a review was sent from (IPv4 /24, IPv6 /48), the browser family,
// and the HMAC that is all that is stored of the network (SIGNAL_KEY; docs/decisions/signals.md).
import { createHmac } from 'node:crypto';
import { parseV4, parseV6 } from '../ip.js';

/** Reviews of one shop from one network and browser family within this many days that raise the signal. */
export const SHARED_NETWORK_REVIEWS = 3;
export const SHARED_NETWORK_DAYS = 30;

export type BrowserFamily = 'chrome' | 'firefox' | 'safari' | 'edge' | 'other';

/**
 * The network of a client address: `a.b.c.0/24` for IPv4 (an IPv4-mapped IPv6 address counts as IPv4), the first
 * 48 bits for IPv6 (what a provider gives one site); null for anything else (what a proxy header may hold).
 */
export function networkOf(ip: string): string | null {
  const v4 = parseV4(ip);
  if (v4) return `${v4.slice(0, 3).join('.')}.0/24`;
  const v6 = parseV6(ip);
  if (!v6) return null;
  const mapped = v6.slice(0, 10).every((b) => b === 0) && v6[10] === 0xff && v6[11] === 0xff;
  if (mapped) return `${v6.slice(12, 15).join('.')}.0/24`;
  const words = [0, 1, 2].map((w) => ((v6[2 * w]! << 8) | v6[2 * w + 1]!).toString(16));
  return `${words.join(':')}::/48`;
}

/**
 * The browser family of a User-Agent header. Order matters: Edge says "Chrome" and "Safari" too, Chrome says
 * "Safari"; browsers built on them that name themselves (Opera, Samsung Internet, …) are `other`.
 */
export function browserFamily(userAgent: string | undefined): BrowserFamily {
  const ua = userAgent ?? '';
  if (/\bEdg(?:e|A|iOS)?\//.test(ua)) return 'edge';
  if (/\b(?:OPR|Opera|SamsungBrowser|YaBrowser|Vivaldi|UCBrowser)\b/.test(ua)) return 'other';
  if (/\b(?:Firefox|FxiOS)\//.test(ua)) return 'firefox';
  if (/\b(?:Chrome|CriOS|Chromium)\//.test(ua)) return 'chrome';
  if (/\bSafari\//.test(ua) && /\bVersion\//.test(ua)) return 'safari';
  return 'other';
}

/**
 * What is stored of the network: an HMAC of the shop and the network, so that the value means nothing without the
 * key and cannot link one network's reviews across shops.
 */
export const networkKey = (key: string, shopId: number, network: string): string =>
  createHmac('sha256', key).update(`${shopId}\n${network}`, 'utf8').digest('base64url');

/** The distinct reviews among `entries` from the same network and browser family as `note`, oldest (lowest id) first. */
export function sameNetwork(
  entries: readonly { review: number; key: string; family: BrowserFamily }[],
  note: { key: string; family: BrowserFamily },
): number[] {
  const ids = new Set(entries.filter((e) => e.key === note.key && e.family === note.family).map((e) => e.review));
  return [...ids].sort((a, b) => a - b);
}
