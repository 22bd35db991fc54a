// The spec's Rating object and ratings summary, as pure functions of stored reviews.
import type { Review } from './model.js';
import { SUB_RATINGS, type SubRatings } from './rules.js';
import { formatDate, formatTimestamp } from '../time.js';
import { originFields, type OriginFields } from './origin.js';
import { experienceDateOf } from './experience.js';

export interface Rating extends OriginFields {
  id: number;
  name: string;
  email: string;
  rating: number;
  ratings: SubRatings;
  comment: string | null;
  date: string;
  country: string;
  created: string;
  read: boolean;
  quarantine: boolean;
  reply: string | null;
  reply_date: string | null;
  /** `YYYY-MM-DD`, or `YYYY-MM` when the writer named only the month (experience.ts). */
  experience_date: string;
}

/** A review as ratings.json (and the reviews.created/updated webhooks) return it. */
export function toRating(r: Review): Rating {
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
    // Clients ignore fields they do not know (compatibility.md): the origin fields are additions.
    ...originFields(r),
    experience_date: experienceDateOf(r),
  };
}

export interface RatingsSummary {
  amount: number;
  /** Twice the mean overall score: the 1–10 scale clients show. */
  rating_average: number;
  /** Means of the given sub-scores on the 1–5 scale; 0 when none was given. */
  ratings_average: SubRatings;
}

const round1 = (n: number) => Math.round(n * 10) / 10;

/** Summarises published reviews. Sub-scores of 0 ("not given") are left out of their averages. */
export function summarize(reviews: Iterable<Pick<Review, 'rating' | 'ratings'>>): RatingsSummary {
  let amount = 0;
  let total = 0;
  const sums = { shippingtime: 0, customerservice: 0, pricequality: 0, aftersale: 0 };
  const counts = { ...sums };
  for (const r of reviews) {
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
