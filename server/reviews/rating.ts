// The spec's Rating object and ratings summary, as pure functions of stored reviews.
import type { Review } from './model.js';
import { SUB_RATINGS } from './rules.js';
import { formatDate, formatTimestamp } from '../time.js';
import { z } from 'zod';
import { ORIGINS, originFields } from './origin.js';
import { apiPhoto, publicPhotos } from './photos.js';
import { experienceDateOf } from './experience.js';

const subScores = z.object({
  shippingtime: z.int(),
  customerservice: z.int(),
  pricequality: z.int(),
  aftersale: z.int(),
});

/** A review as ratings.json lists it (and the reviews.created/updated webhooks send it). */
export const ratingSchema = z
  .object({
    id: z.int(),
    name: z.string(),
    email: z.string(),
    rating: z.int().meta({ description: '1–5' }),
    ratings: subScores,
    comment: z.string().nullable(),
    date: z.string().meta({ description: 'YYYY-MM-DD' }),
    country: z.string(),
    created: z.string(),
    read: z.boolean(),
    quarantine: z.boolean(),
    reply: z.string().nullable(),
    reply_date: z.string().nullable(),
    origin: z.enum(ORIGINS).meta({ description: 'how the review was checked' }),
    incentivised: z.boolean(),
    imported_from: z.string().nullable().meta({ description: 'imports: the source platform' }),
    original_date: z.string().nullable().meta({ description: 'imports: ISO 8601 date on the source platform' }),
    /** Issue 21: when the experience took place; `YYYY-MM` when the writer named only the month (experience.ts). */
    experience_date: z.string().meta({ description: 'YYYY-MM-DD, or YYYY-MM when only the month is known' }),
    /** "Helpful" votes (issue 20): set by the ratings read model, which keeps the counts; absent in webhook bodies. */
    helpful: z.int().optional().meta({ description: '"Helpful" votes; absent in webhook bodies' }),
    /** The review's photos once shown, while it is published (issue 20); `[]` otherwise. */
    photos: z.array(
      z.object({ url: z.string(), thumb_url: z.string(), width: z.int(), height: z.int(), alt: z.string() }),
    ),
  })
  .meta({ id: 'Rating' });
export type Rating = z.infer<typeof ratingSchema>;

/**
 * A review as ratings.json (and the reviews.created/updated webhooks) return it. `baseUrl` makes the photos'
 * addresses absolute ('' leaves paths).
 */
export function toRating(r: Review, baseUrl = ''): Rating {
  return {
    id: r.id,
    name: r.name,
    email: r.email,
    rating: r.rating,
    ratings: {
      shippingtime: r.ratings.shippingtime,
      customerservice: r.ratings.customerservice,
      pricequality: r.ratings.pricequality,
      aftersale: r.ratings.aftersale,
    },
    comment: r.comment,
    date: formatDate(r.created),
    country: r.country,
    created: formatTimestamp(r.created),
    read: r.read,
    quarantine: r.quarantine,
    reply: r.reply?.text ?? null,
    reply_date: r.reply ? formatTimestamp(r.reply.date) : null,
    // Clients ignore fields they do not know (compatibility.md): the origin fields and photos are additions.
    ...originFields(r),
    experience_date: experienceDateOf(r),
    photos: r.published ? publicPhotos(r, baseUrl).map(apiPhoto) : [],
  };
}

/** ratings_summary.json's `data`. Scores are numbers as computed: 4.5 is sent as 4.5, 4 as 4. */
export const ratingsSummarySchema = z.object({
  amount: z.int(),
  /** Twice the mean overall score: the 1–10 scale clients show. */
  rating_average: z.number().meta({ description: '1–10' }),
  /** Means of the given sub-scores on the 1–5 scale; 0 when none was given. */
  ratings_average: z.object({
    shippingtime: z.number(),
    customerservice: z.number(),
    pricequality: z.number(),
    aftersale: z.number(),
  }),
});
export type RatingsSummary = z.infer<typeof ratingsSummarySchema>;

const round1 = (n: number) => Math.round(n * 10) / 10;

/**
 * How the operator counts incentivised reviews in scores (INCENTIVISED_IN_SCORE, issue 21): by default like any
 * review (the spec's figures unchanged); or left out of every score the service shows or serves.
 */
export interface ScorePolicy {
  incentivisedInScore: boolean;
}

/** The spec's figures: every published review counts. */
export const COUNT_ALL: ScorePolicy = { incentivisedInScore: true };

/**
 * Whether a published review counts in the scores shown and served (averages and the counts beside them). The one
 * rule every aggregate applies; the review itself stays published and labelled either way.
 */
export function countsInScore(review: Partial<Pick<Review, 'incentivised'>>, policy: ScorePolicy): boolean {
  return policy.incentivisedInScore || review.incentivised !== true;
}

/**
 * Summarises published reviews, those that count under `policy`. Sub-scores of 0 ("not given") are left out of their
 * averages.
 */
export function summarize(
  reviews: Iterable<Pick<Review, 'rating' | 'ratings'> & Partial<Pick<Review, 'incentivised'>>>,
  policy: ScorePolicy,
): RatingsSummary {
  let amount = 0;
  let total = 0;
  const sums = { shippingtime: 0, customerservice: 0, pricequality: 0, aftersale: 0 };
  const counts = { ...sums };
  for (const r of reviews) {
    if (!countsInScore(r, policy)) continue;
    amount++;
    total += r.rating;
    for (const key of SUB_RATINGS) {
      const v = r.ratings?.[key] ?? 0;
      if (v > 0) {
        sums[key] += v;
        counts[key]++;
      }
    }
  }
  const ratings_average = { ...sums };
  for (const key of SUB_RATINGS) ratings_average[key] = counts[key] ? round1(sums[key] / counts[key]) : 0;
  return { amount, rating_average: amount ? round1((2 * total) / amount) : 0, ratings_average };
}
