import { describe, expect, it } from 'vitest';
import { policyNumbers, removalRows, twelveMonthsBefore } from './numbers.js';
import { requestedLanguage } from './routes.js';

describe('policyNumbers', () => {
  it('counts published reviews per origin and incentive, and lists the methods used in page order', () => {
    const n = policyNumbers([
      { source: 'import', verified: false, origin: 'imported' },
      { source: 'invitation', verified: true, origin: 'verified_order', incentivised: true },
      { source: 'popup', verified: false, origin: 'email_confirmed' },
      // Written by an older process: origin derived.
      { source: 'popup', verified: true },
    ]);
    expect(n).toEqual({
      methods: ['invitation', 'popup', 'import'],
      byOrigin: { verified_order: 2, email_confirmed: 1, imported: 1 },
      incentivised: 1,
      total: 4,
    });
  });

  it('is empty for a shop without published reviews', () => {
    expect(policyNumbers([])).toEqual({
      methods: [],
      byOrigin: { verified_order: 0, email_confirmed: 0, imported: 0 },
      incentivised: 0,
      total: 0,
    });
  });
});

describe('removalRows', () => {
  it('lists every ground in a fixed order, 0 when none, ignoring unknown keys', () => {
    expect(removalRows({ spam: 2, other: 1, bogus: 9 })).toEqual([
      { ground: 'not_experience', count: 0 },
      { ground: 'offensive', count: 0 },
      { ground: 'personal_data', count: 0 },
      { ground: 'spam', count: 2 },
      { ground: 'conflict_of_interest', count: 0 },
      { ground: 'other', count: 1 },
    ]);
  });
});

describe('twelveMonthsBefore', () => {
  it('is the same day a year earlier', () => {
    expect(twelveMonthsBefore(new Date('2026-11-23T10:00:00Z')).toISOString()).toBe('2025-11-23T10:00:00.000Z');
  });
});

describe('requestedLanguage', () => {
  it('takes ?lang=, else the first supported Accept-Language, else the shop language', () => {
    expect(requestedLanguage('de', ['nl'], 'en')).toBe('de');
    expect(requestedLanguage(undefined, ['xx', 'nl-BE', 'en'], 'de')).toBe('nl');
    expect(requestedLanguage('klingon', ['*'], 'fr')).toBe('fr');
    expect(requestedLanguage(['nl', 'de'], [], 'en')).toBe('en');
  });
});
