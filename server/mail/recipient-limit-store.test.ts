import { describe, expect, it } from 'vitest';
import { mailboxOf, recipientKey, secondsUntilNextDay, utcDay } from './recipient-limit-store.js';
import { placeId as windowPlaceId } from '../db/window-places.js';

const placeId = (day: string, email: string, place: number) => windowPlaceId(day, recipientKey(email), place);
import { mayQuoteWriter } from './reviews.js';

describe('mailboxOf', () => {
  it('sees one mailbox behind case, sub-addresses and Gmail dots', () => {
    expect(mailboxOf(' Jane.Doe+shop@Example.COM ')).toBe('jane.doe@example.com');
    expect(mailboxOf('j.a.n.e+x@googlemail.com')).toBe('jane@gmail.com');
    expect(mailboxOf('jane@gmail.com.')).toBe('jane@gmail.com');
    // Dots matter elsewhere.
    expect(mailboxOf('j.ane@example.com')).not.toBe(mailboxOf('jane@example.com'));
  });
});

describe('placeId', () => {
  it('keeps no address, and sorts a day’s places after every earlier day’s', () => {
    const id = placeId('2026-11-05', 'Victim+a@Example.com', 2);
    expect(id).toMatch(/^2026-11-05:[0-9a-f]{64}:2$/);
    expect(id).toBe(placeId('2026-11-05', 'victim@example.com', 2));
    expect(placeId('2026-11-04', 'z@example.com', 3) < '2026-11-05:').toBe(true);
    expect(id < '2026-11-05:').toBe(false);
  });
});

describe('days', () => {
  it('are UTC days; Retry-After reaches the next one', () => {
    expect(utcDay(new Date('2026-11-05T23:59:59.999Z'))).toBe('2026-11-05');
    expect(secondsUntilNextDay(new Date('2026-11-05T23:59:00Z'))).toBe(60);
    expect(secondsUntilNextDay(new Date('2026-11-05T00:00:00Z'))).toBe(86_400);
    expect(secondsUntilNextDay(new Date('2026-11-05T23:59:59.999Z'))).toBe(1);
  });
});

describe('mayQuoteWriter', () => {
  it('only for a published review that no longer waits for its writer', () => {
    expect(mayQuoteWriter({ published: true, confirmToken: null })).toBe(true);
    expect(mayQuoteWriter({ published: false, confirmToken: 'c' })).toBe(false);
    expect(mayQuoteWriter({ published: true, confirmToken: 'c' })).toBe(false);
    expect(mayQuoteWriter({ published: false, confirmToken: null })).toBe(false);
  });
});
