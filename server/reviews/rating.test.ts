import { describe, expect, it } from 'vitest';
import type { Review } from './model.js';
import { noSubRatings } from './rules.js';
import { COUNT_ALL, countsInScore, summarize, toRating } from './rating.js';

const sub = (shippingtime: number, customerservice: number, pricequality: number, aftersale: number) => ({
  shippingtime,
  customerservice,
  pricequality,
  aftersale,
});

describe('summarize', () => {
  it('gives an empty shop zeros in every field', () => {
    expect(summarize([], COUNT_ALL)).toEqual({ amount: 0, rating_average: 0, ratings_average: sub(0, 0, 0, 0) });
  });

  it('puts the overall average on the 1–10 scale and sub-scores on 1–5', () => {
    const summary = summarize(
      [
        { rating: 5, ratings: sub(5, 4, 3, 2) },
        { rating: 4, ratings: sub(3, 4, 5, 4) },
      ],
      COUNT_ALL,
    );
    expect(summary).toEqual({ amount: 2, rating_average: 9, ratings_average: sub(4, 4, 4, 3) });
  });

  it('leaves sub-scores of 0 ("not given") out of their averages but counts the review', () => {
    const summary = summarize(
      [
        { rating: 5, ratings: sub(4, 0, 0, 0) },
        { rating: 3, ratings: sub(0, 0, 0, 0) },
        { rating: 1, ratings: sub(2, 0, 5, 0) },
      ],
      COUNT_ALL,
    );
    expect(summary.amount).toBe(3);
    expect(summary.rating_average).toBe(6);
    expect(summary.ratings_average).toEqual(sub(3, 0, 5, 0));
  });

  it('rounds to one decimal', () => {
    const summary = summarize(
      [
        { rating: 5, ratings: sub(5, 5, 0, 0) },
        { rating: 4, ratings: sub(4, 5, 0, 0) },
        { rating: 4, ratings: sub(4, 4, 0, 0) },
      ],
      COUNT_ALL,
    );
    // 13/3 = 4.333… → 8.666… on the 1–10 scale.
    expect(summary.rating_average).toBe(8.7);
    expect(summary.ratings_average).toEqual(sub(4.3, 4.7, 0, 0));
  });

  it('accepts any iterable (the read model passes filtered arrays)', () => {
    function* reviews() {
      yield { rating: 2, ratings: noSubRatings() };
    }
    expect(summarize(reviews(), COUNT_ALL).rating_average).toBe(4);
  });
});

describe('incentivised reviews and the score (INCENTIVISED_IN_SCORE)', () => {
  const reviews = [
    { rating: 5, ratings: sub(5, 5, 0, 0), incentivised: true },
    { rating: 1, ratings: sub(1, 0, 0, 0), incentivised: false },
    { rating: 2, ratings: sub(3, 0, 0, 0) },
  ];

  it('count like any review by default: the spec’s figures', () => {
    expect(summarize(reviews, COUNT_ALL)).toEqual({ amount: 3, rating_average: 5.3, ratings_average: sub(3, 5, 0, 0) });
  });

  it('are left out of the amount, the average and the sub-scores when the policy says so', () => {
    const policy = { incentivisedInScore: false };
    expect(summarize(reviews, policy)).toEqual({ amount: 2, rating_average: 3, ratings_average: sub(2, 0, 0, 0) });
    expect(reviews.map((r) => countsInScore(r, policy))).toEqual([false, true, true]);
    expect(reviews.map((r) => countsInScore(r, COUNT_ALL))).toEqual([true, true, true]);
  });
});

describe('toRating', () => {
  const review = {
    id: 7,
    shopId: 1,
    name: 'Jan',
    email: 'jan@example.com',
    rating: 4,
    ratings: { ...sub(5, 4, 0, 3), extra: 9 } as Review['ratings'],
    comment: null,
    language: 'nl',
    country: 'NL',
    order: '1001',
    created: new Date(Date.UTC(2024, 0, 2, 3, 4, 5)),
    modified: new Date(Date.UTC(2024, 5, 1)),
    read: false,
    quarantine: true,
    is_spam: false,
    valid: true,
    deleted: false,
    published: false,
    announced: false,
    verified: true,
    source: 'invitation',
    products: [],
    reply: null,
    version: 1,
    pendingEvent: null,
  } as unknown as Review;

  it('returns exactly the spec fields plus id and reply, in the spec formats', () => {
    expect(toRating(review)).toStrictEqual({
      id: 7,
      name: 'Jan',
      email: 'jan@example.com',
      rating: 4,
      ratings: sub(5, 4, 0, 3),
      comment: null,
      date: '2024-01-02',
      country: 'NL',
      created: '2024-01-02 03:04:05',
      read: false,
      quarantine: true,
      reply: null,
      reply_date: null,
      origin: 'verified_order',
      incentivised: false,
      imported_from: null,
      original_date: null,
      photos: [],
      experience_date: '2024-01-02',
    });
  });

  it('shows an import as imported, with its platform, original date and incentive', () => {
    const imported = {
      ...review,
      source: 'import',
      verified: false,
      origin: 'imported',
      incentivised: true,
      imported_from: 'Kiyoh',
      original_date: new Date(Date.UTC(2021, 4, 6)),
    } as Review;
    expect(toRating(imported)).toMatchObject({
      origin: 'imported',
      incentivised: true,
      imported_from: 'Kiyoh',
      original_date: '2021-05-06T00:00:00.000Z',
    });
  });

  it('derives the origin of a review stored before origins existed', () => {
    expect(toRating({ ...review, source: 'popup', verified: false }).origin).toBe('email_confirmed');
    expect(toRating({ ...review, source: 'popup', verified: true }).origin).toBe('verified_order');
    expect(toRating({ ...review, source: 'import', verified: true }).origin).toBe('imported');
  });

  it('shows the reply text and its UTC timestamp', () => {
    const replied = {
      ...review,
      reply: {
        text: 'Dank je!',
        date: new Date(Date.UTC(2024, 0, 3, 23, 59, 0)),
        notify: false,
        revision: 1,
        notified: null,
      },
    };
    expect(toRating(replied)).toMatchObject({ reply: 'Dank je!', reply_date: '2024-01-03 23:59:00' });
  });
});
