import { describe, expect, it } from 'vitest';
import { DAY_MS } from '../time.js';
import { orderData, signedFields } from '../embed/input.js';
import { badgesFor, editMailDueOnRelease, popupTrust, sameEmail, wholeYears } from './rules.js';

const at = (iso: string) => new Date(iso);

describe('badges', () => {
  it('earns approved, verified share and whole member years', () => {
    const shop = { approved_date: '2021-05-01', created: at('2020-03-15T10:00:00Z') };
    expect(badgesFor(shop, { total: 3, verified: 2 }, at('2024-03-15T00:00:00Z'))).toEqual([
      { key: 'approved', since: '2021-05-01' },
      { key: 'verified_share', value: 67 },
      { key: 'member_years', value: 4 },
    ]);
  });

  it('earns nothing as a new, unapproved shop without reviews', () => {
    expect(
      badgesFor(
        { approved_date: null, created: at('2024-01-01T00:00:00Z') },
        { total: 0, verified: 0 },
        at('2024-12-31T00:00:00Z'),
      ),
    ).toEqual([]);
  });

  it('counts a year on the anniversary, not a day before', () => {
    expect(wholeYears(at('2023-06-10T12:00:00Z'), at('2024-06-09T23:59:00Z'))).toBe(0);
    expect(wholeYears(at('2023-06-10T12:00:00Z'), at('2024-06-10T00:00:00Z'))).toBe(1);
  });
});

describe('trust of a pop-up review', () => {
  const chosen = at('2024-05-01T08:00:00Z');

  it("publishes a signed order's review as verified; the edit e-mail follows the invite delay", () => {
    expect(popupTrust(true, chosen, 5)).toEqual({
      status: 'published',
      quarantine: false,
      verified: true,
      editMailDue: new Date(chosen.getTime() + 5 * DAY_MS),
    });
  });

  it("holds an unsigned order's review back, unverified, without an edit e-mail", () => {
    expect(popupTrust(false, chosen, 5)).toEqual({
      status: 'pending_confirmation',
      quarantine: true,
      verified: false,
      editMailDue: null,
    });
  });

  it("sends a released review's edit e-mail when it was due, or now if that has passed", () => {
    expect(editMailDueOnRelease(chosen, 5, at('2024-05-02T00:00:00Z'))).toEqual(
      new Date(chosen.getTime() + 5 * DAY_MS),
    );
    const late = at('2024-06-01T00:00:00Z');
    expect(editMailDueOnRelease(chosen, 5, late)).toEqual(late);
    expect(editMailDueOnRelease(null, 5, late)).toEqual(late);
  });

  it('compares addresses without case, and never matches an empty one', () => {
    expect(sameEmail('Jane@Example.com', ' jane@example.COM')).toBe(true);
    expect(sameEmail('', '')).toBe(false);
  });
});

describe('order data from the page', () => {
  it('keeps the values as printed for the signature and normalises them for storage', () => {
    const raw = { webshopId: '12', orderNumber: ' 000123 ', email: 'Jane@EXAMPLE.com', inviteDelay: '3' };
    expect(signedFields(raw)).toEqual({
      webshopId: '12',
      orderNumber: ' 000123 ',
      email: 'Jane@EXAMPLE.com',
      firstName: null,
      inviteDelay: '3',
    });
    expect(orderData(raw)).toEqual({
      webshopId: 12,
      orderNumber: '000123',
      email: 'Jane@example.com',
      firstName: '',
      inviteDelay: 3,
    });
  });

  it('defaults the invite delay to 5, clamps it, and drops an address that is not one', () => {
    expect(orderData({ webshopId: 1, orderNumber: 'A' }).inviteDelay).toBe(5);
    expect(orderData({ webshopId: 1, orderNumber: 'A', inviteDelay: -2 }).inviteDelay).toBe(0);
    expect(orderData({ webshopId: 1, orderNumber: 'A', inviteDelay: 9999 }).inviteDelay).toBe(365);
    expect(orderData({ webshopId: 1, orderNumber: 'A', email: 'nope' }).email).toBe('');
  });
});
