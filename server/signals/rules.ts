// Fake-review signals (issue 21), the pure rules: which signals exist, when `burst` and `insider` are raised. A signal
// only puts an entry in the operator's moderation queue; it never hides, holds or delays a review.
import { formatDate } from '../time.js';

/** The signals this version computes (named in shared plumbing); the operator switches each off with SIGNALS. */
export type { SignalName } from '../signal-names.js';

/** Days whose average sets the burst threshold, and the floor below which no burst is raised. */
export const BURST_HISTORY_DAYS = 90;
const BURST_FLOOR = 10;
const BURST_FACTOR = 5;

/** More reviews in 24 hours than this is a burst: max(10, 5 × the daily average over the previous 90 days). */
export function burstLimit(previousDays: readonly number[]): number {
  const total = previousDays.reduce((a, b) => a + b, 0);
  return Math.max(BURST_FLOOR, BURST_FACTOR * (total / BURST_HISTORY_DAYS));
}

/** The counters' names: a UTC day, and a UTC hour (`YYYY-MM-DDTHH`). */
export const dayKey = (at: Date): string => formatDate(at);
export const hourKey = (at: Date): string => at.toISOString().slice(0, 13);

/**
 * Mail providers anyone can have an address at: an address there says nothing about the shop, even when the shop
 * is on the same domain (a shop at gmail.com's own domain is not a case to cater for).
 */
const PUBLIC_MAIL_PROVIDERS: ReadonlySet<string> = new Set([
  'gmail.com',
  'googlemail.com',
  'outlook.com',
  'hotmail.com',
  'hotmail.nl',
  'hotmail.de',
  'hotmail.fr',
  'live.com',
  'live.nl',
  'msn.com',
  'yahoo.com',
  'yahoo.de',
  'yahoo.fr',
  'ymail.com',
  'icloud.com',
  'me.com',
  'mac.com',
  'aol.com',
  'gmx.de',
  'gmx.net',
  'gmx.com',
  'web.de',
  't-online.de',
  'proton.me',
  'protonmail.com',
  'mail.com',
  'zoho.com',
  'yandex.com',
  'orange.fr',
  'free.fr',
  'laposte.net',
  'libero.it',
  'virgilio.it',
  'ziggo.nl',
  'kpnmail.nl',
  'planet.nl',
  'telenet.be',
  'skynet.be',
  'freenet.de',
  'tutanota.com',
  'fastmail.com',
]);

/** The registrable part of a host as far as a plain rule goes: `www.` dropped, lower case. */
function hostOf(value: string): string {
  return value
    .trim()
    .toLowerCase()
    .replace(/\.$/, '')
    .replace(/^www\./, '');
}

/** The shop's own domain, from its URL; '' when it has none. */
export function shopDomain(url: string): string {
  try {
    return hostOf(new URL(url).hostname);
  } catch {
    return '';
  }
}

/** The writer's address is at the shop's own domain (or a subdomain), and that is not a public mail provider. */
export function isShopAddress(email: string, domain: string): boolean {
  const at = email.lastIndexOf('@');
  if (at < 0 || !domain || PUBLIC_MAIL_PROVIDERS.has(domain)) return false;
  const host = hostOf(email.slice(at + 1));
  return host === domain || host.endsWith(`.${domain}`);
}
