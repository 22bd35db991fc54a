import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { toRating } from '../reviews/rating.js';
import type { Review } from '../reviews/model.js';
import { noSubRatings } from '../reviews/rules.js';
import { outcomeOf, ReviewSnapshots } from './delivery.js';
import { isDelivered, payloadFor, retryDelayMs, signature } from './payload.js';
import { storedReview } from '../../test/review-fixture.js';

const review = (changes: Partial<Review> = {}): Review =>
  storedReview({
    id: 12,
    shopId: 3,
    name: 'Jane',
    email: 'jane@example.com',
    ratings: { ...noSubRatings(), shippingtime: 5 },
    comment: 'Good',
    created: new Date('2024-11-03T08:00:00Z'),
    source: 'import',
    pendingEvent: 'reviews.created',
    ...changes,
  });

describe('payloadFor', () => {
  it('carries the experience date in every event (issue 21): created, updated and deleted', () => {
    const dated = review({ experience_date: '2024-10-28' });
    for (const topic of ['reviews.created', 'reviews.updated', 'reviews.deleted'] as const) {
      expect(JSON.parse(payloadFor(topic, dated)).experience_date).toBe('2024-10-28');
    }
    // A review stored before the field existed is dated by its own date.
    expect(JSON.parse(payloadFor('reviews.created', review())).experience_date).toBe('2024-11-03');
  });

  it('is the ratings.json object for created and updated', () => {
    expect(JSON.parse(payloadFor('reviews.created', review()))).toEqual(toRating(review()));
    expect(JSON.parse(payloadFor('reviews.updated', review({ comment: 'Better' })))).toEqual(
      toRating(review({ comment: 'Better' })),
    );
  });

  it('is id, deleted and the fields a deletion keeps for deleted', () => {
    const deleted = review({ deleted: true, name: '', email: '', comment: null, version: 2 });
    expect(JSON.parse(payloadFor('reviews.deleted', deleted))).toEqual({
      id: 12,
      deleted: true,
      rating: 4,
      ratings: { shippingtime: 5, customerservice: 0, pricequality: 0, aftersale: 0 },
      date: '2024-11-03',
      country: 'NL',
      created: '2024-11-03 08:00:00',
      read: false,
      quarantine: false,
      origin: 'imported',
      incentivised: false,
      imported_from: null,
      original_date: null,
      experience_date: '2024-11-03',
    });
    expect(Object.keys(JSON.parse(payloadFor('reviews.deleted', deleted))).slice(0, 2)).toEqual(['id', 'deleted']);
  });
});

describe('payloadFor: origin (issue 11)', () => {
  it('carries the four origin fields flat, as ratings.json does', () => {
    const body = JSON.parse(
      payloadFor(
        'reviews.created',
        review({
          source: 'import',
          imported_from: 'Trustpilot',
          incentivised: true,
          original_date: new Date('2022-02-03T00:00:00Z'),
        }),
      ),
    );
    expect(body).toMatchObject({
      origin: 'imported',
      incentivised: true,
      imported_from: 'Trustpilot',
      original_date: '2022-02-03T00:00:00.000Z',
    });
    expect(JSON.parse(payloadFor('reviews.updated', review({ source: 'invitation' }))).origin).toBe('verified_order');
    expect(JSON.parse(payloadFor('reviews.updated', review({ source: 'form', verified: false }))).origin).toBe(
      'email_confirmed',
    );
  });
});

describe('signature', () => {
  it('is the lowercase hex HMAC-SHA512 of the exact bytes, including non-ASCII text', () => {
    const body = '{"comment":"Très bien 👍"}';
    expect(signature(body, 'k')).toBe(createHmac('sha512', 'k').update(Buffer.from(body, 'utf8')).digest('hex'));
    expect(signature(body, 'k')).toMatch(/^[0-9a-f]{128}$/);
    expect(signature(`${body} `, 'k')).not.toBe(signature(body, 'k'));
  });
});

describe('retries', () => {
  const schedule = [60, 300, 1800];
  const now = new Date('2024-01-01T00:00:00Z');

  it('waits the n-th delay after the n-th failure and stops after the last', () => {
    expect([1, 2, 3, 4].map((n) => retryDelayMs(schedule, n))).toEqual([60_000, 300_000, 1_800_000, undefined]);
  });

  it('counts only 2xx as delivered', () => {
    expect([200, 204, 299].every(isDelivered)).toBe(true);
    expect([null, 199, 301, 302, 400, 401, 500].some(isDelivered)).toBe(false);
  });

  it('turns an attempt into delivered, a retry at the scheduled time, or failed', () => {
    expect(outcomeOf({ failures: 0, retries: true }, 200, schedule, now)).toEqual({ kind: 'delivered' });
    expect(outcomeOf({ failures: 0, retries: true }, 500, schedule, now)).toEqual({
      kind: 'retry',
      at: new Date('2024-01-01T00:01:00Z'),
    });
    expect(outcomeOf({ failures: 2, retries: true }, null, schedule, now)).toEqual({
      kind: 'retry',
      at: new Date('2024-01-01T00:30:00Z'),
    });
    expect(outcomeOf({ failures: 3, retries: true }, 500, schedule, now)).toEqual({ kind: 'failed' });
    // A redelivery asked for by the shop is one attempt.
    expect(outcomeOf({ failures: 0, retries: false }, 302, schedule, now)).toEqual({ kind: 'failed' });
  });
});

describe('ReviewSnapshots', () => {
  it('keeps written versions with an event until taken, and only a bounded number', () => {
    const snapshots = new ReviewSnapshots(2);
    snapshots.remember(review({ version: 1 }));
    snapshots.remember(review({ version: 2, pendingEvent: null })); // no event: nothing to deliver
    snapshots.remember(review({ id: 13 }));
    snapshots.remember(review({ id: 14 }));
    expect(snapshots.take('12:1')).toBeUndefined(); // the oldest made room
    expect(snapshots.take('13:1')?.id).toBe(13);
    expect(snapshots.take('13:1')).toBeUndefined();
    expect(snapshots.takeAll().map((r) => r.id)).toEqual([14]);
    expect(snapshots.takeAll()).toEqual([]);
  });
});
