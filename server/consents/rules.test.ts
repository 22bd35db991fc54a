import { describe, expect, it } from 'vitest';
import { DAY_MS } from '../time.js';
import {
  addressKey,
  customerReviewed,
  hasConsent,
  invitationNotBefore,
  NO_ADDRESS,
  speaksForCustomer,
  type ReceiptFacts,
} from './rules.js';

const created = new Date(Date.UTC(2025, 0, 1));
const later = (inviteDelay: number): ReceiptFacts => ({ choice: 'ask_later', inviteDelay, created });
const now: ReceiptFacts = { choice: 'write_now', inviteDelay: 3, created };

describe('addressKey', () => {
  it('is the same for any case of the address and carries no address', () => {
    expect(addressKey(' Jane@Example.COM ')).toBe(addressKey('jane@example.com'));
    expect(addressKey('jane@example.com')).toMatch(/^[0-9a-f]{32}$/);
    expect(addressKey('john@example.com')).not.toBe(addressKey('jane@example.com'));
    expect(addressKey('')).toBe(NO_ADDRESS);
  });
});

describe('invitationNotBefore', () => {
  it('follows the signed receipt first, then the one under the invitation’s address', () => {
    expect(invitationNotBefore({ signed: later(2), own: later(30), anonymous: later(9) })!.getTime()).toBe(
      created.getTime() + 2 * DAY_MS,
    );
    expect(invitationNotBefore({ signed: null, own: later(30), anonymous: later(9) })!.getTime()).toBe(
      created.getTime() + 30 * DAY_MS,
    );
    // A signed "write now" supersedes an unsigned "ask me later".
    expect(invitationNotBefore({ signed: now, own: later(30), anonymous: null })).toBeUndefined();
  });

  it('lets a receipt without an address delay by at most 14 days', () => {
    expect(invitationNotBefore({ signed: null, own: null, anonymous: later(365) })!.getTime()).toBe(
      created.getTime() + 14 * DAY_MS,
    );
    expect(invitationNotBefore({ signed: null, own: null, anonymous: later(3) })!.getTime()).toBe(
      created.getTime() + 3 * DAY_MS,
    );
    expect(invitationNotBefore({ signed: null, own: null, anonymous: null })).toBeUndefined();
  });
});

describe('speaksForCustomer and customerReviewed', () => {
  const review = (email: string, verified: boolean, confirmToken: string | null = null) => ({
    email,
    verified,
    confirmToken,
  });

  it('only a signed receipt or one under the invitation’s address speaks for its customer', () => {
    expect(speaksForCustomer({ signed: now, own: null, anonymous: null })).toBe(true);
    expect(speaksForCustomer({ signed: null, own: now, anonymous: null })).toBe(true);
    expect(speaksForCustomer({ signed: null, own: null, anonymous: now })).toBe(false);
  });

  it('counts a verified review or one under the address, never a waiting one or someone else’s', () => {
    expect(customerReviewed([review('eve@attacker.example', false)], 'jane@example.com')).toBe(false);
    expect(customerReviewed([review('Jane@Example.com', false)], 'jane@example.com')).toBe(true);
    expect(customerReviewed([review('', true)], 'jane@example.com')).toBe(true);
    expect(customerReviewed([review('jane@example.com', false, 'waiting-token')], 'jane@example.com')).toBe(false);
    expect(customerReviewed([], 'jane@example.com')).toBe(false);
  });
});

describe('hasConsent', () => {
  it('counts unsigned receipts unless the shop requires signed order data', () => {
    expect(hasConsent({ signed: false, unsigned: 1 }, false)).toBe(true);
    expect(hasConsent({ signed: false, unsigned: 1 }, true)).toBe(false);
    expect(hasConsent({ signed: true, unsigned: 0 }, true)).toBe(true);
    expect(hasConsent({ signed: false, unsigned: 0 }, false)).toBe(false);
  });
});
