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

/**
 * Whether a vote may come from this request: the page that sent it must be the service's own (a page elsewhere
 * must not make its visitors' browsers vote from their addresses). Browsers name the sending page's origin on every
 * cross-origin POST (`Origin`) and say where the request comes from (`Sec-Fetch-Site`); a request with neither is
 * no browser's and could only vote from its own address, which the per-address rule already counts once.
 */
export function sameOriginVote(ownOrigin: string, origin: string, fetchSite: string): boolean {
  if (origin) return origin === ownOrigin;
  return fetchSite === '' || fetchSite === 'same-origin' || fetchSite === 'none';
}
