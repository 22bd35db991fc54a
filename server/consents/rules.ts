// How much a consent receipt is trusted, as pure functions (docs/decisions.md, "Consent pop-up trust model").
//
// A signed receipt is the shop's word about its own order. An unsigned one is only the word of whoever posted it:
// it may speak for the address it was recorded under, never for another one. So an unsigned receipt affects an
// invitation only when the invitation goes to that same address; one recorded without an address may delay an
// invitation a little (the customer may really have asked for later) but proves nothing.
import { sha256Hex } from '../hash.js';
import { normalizeEmail } from '../email.js';
import { addDays } from '../time.js';

/** The most an unsigned receipt without an address may delay the shop's invitation. */
const ANONYMOUS_MAX_DELAY_DAYS = 14;

/** The key of an unsigned receipt recorded without an address. */
export const NO_ADDRESS = 'none';

/** One order of one shop. */
export interface ShopOrder {
  shopId: number;
  order: string;
}

/** What identifies an address among an order's unsigned receipts: a hash, so no address is part of a key. */
export function addressKey(email: string): string {
  const address = normalizeEmail(email).toLowerCase();
  return address ? sha256Hex(address).slice(0, 32) : NO_ADDRESS;
}

/** The fields of a receipt these rules read. */
export interface ReceiptFacts {
  choice: 'write_now' | 'ask_later';
  inviteDelay: number;
  created: Date;
}

/** The receipts of an order that may concern an invitation to one address. */
export interface InvitationReceipts<R extends ReceiptFacts = ReceiptFacts> {
  signed: R | null;
  /** Unsigned, recorded under the invitation's address. */
  own: R | null;
  /** Unsigned, recorded without an address. */
  anonymous: R | null;
}

/** Whether a receipt shows that the invitation's customer made a choice: signed, or recorded under their address. */
export function speaksForCustomer(receipts: InvitationReceipts): boolean {
  return receipts.signed !== null || receipts.own !== null;
}

/**
 * The earliest moment an invitation may be sent after an "Ask me later": the delay promised by the receipt that
 * speaks for the customer (a signed one supersedes unsigned ones), or at most ANONYMOUS_MAX_DELAY_DAYS by one
 * recorded without an address. Undefined when no receipt asks for later.
 */
export function invitationNotBefore(receipts: InvitationReceipts): Date | undefined {
  const trusted = receipts.signed ?? receipts.own;
  const receipt = trusted ?? receipts.anonymous;
  if (receipt?.choice !== 'ask_later') return undefined;
  const days = trusted ? receipt.inviteDelay : Math.min(receipt.inviteDelay, ANONYMOUS_MAX_DELAY_DAYS);
  return addDays(receipt.created, days);
}

/** order_permissions.json: a signed receipt always counts; unsigned ones unless the shop requires signed data. */
export function hasConsent(order: { signed: boolean; unsigned: number }, requireSigned: boolean): boolean {
  return order.signed || (!requireSigned && order.unsigned > 0);
}

/** The fields of a review that decide whether it is the invitation customer's own. */
export interface WrittenReview {
  email: string;
  verified: boolean;
  confirmToken: string | null;
}

/**
 * Whether the invitation's customer already wrote their review of the order: a review that does not wait for
 * confirmation, by a verified customer of the order or written under the invitation's address. A review someone
 * else confirmed under their own address is not the customer's.
 */
export function customerReviewed(reviews: readonly WrittenReview[], email: string): boolean {
  const key = addressKey(email);
  return reviews.some(
    (r) => r.confirmToken === null && (r.verified || (r.email !== '' && addressKey(r.email) === key)),
  );
}
