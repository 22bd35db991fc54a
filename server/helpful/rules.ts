// Who voted, as the vote documents remember it: an HMAC of the review and the client's address (an IPv6 /64 counts
// as one client), keyed with HELPFUL_VOTE_KEY, so the store holds no address and the hash cannot be tested against
// guessed addresses without the key.
import { createHmac } from 'node:crypto';

export const voterKey = (key: string, reviewId: number, clientAddress: string): string =>
  createHmac('sha256', key).update(`${reviewId}\n${clientAddress}`, 'utf8').digest('base64url');

/** Where the no-JavaScript form returns to: the shop's own page (any query), never elsewhere. */
export function returnPath(shopId: number, asked: unknown): string {
  const page = `/webshops/${shopId}`;
  if (typeof asked !== 'string' || asked.length > 500) return page;
  return asked === page || asked.startsWith(`${page}?`) ? asked.replace(/[#\s].*$/s, '') : page;
}
