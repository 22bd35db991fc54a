// The contract of ratings.json and ratings_summary.json (routes.ts); the answers' schemas are the Rating and summary
// of server/reviews/rating.ts, which the read model's types come from.
import { z } from 'zod';
import { classicAnswers, classicSuccess, credentials, type Endpoint } from '../http/contract.js';
import { ratingSchema, ratingsSummarySchema } from '../reviews/rating.js';

export const ratingEndpoints: Endpoint[] = [
  {
    method: 'get',
    path: '/api/1.0/ratings.json',
    family: 'classic',
    summary: 'List ratings (newest first)',
    query: credentials.extend({
      language: z.string().meta({ description: 'ISO 639-1 (other forms are mapped)' }).optional(),
      offset: z.int().meta({ description: 'default 0' }).optional(),
      limit: z.int().meta({ description: '1–100, default 10' }).optional(),
    }),
    answers: classicAnswers(
      classicSuccess('Ratings successfully retrieved!', { ratings: z.array(ratingSchema), total: z.int() }),
    ),
  },
  {
    method: 'get',
    path: '/api/1.0/ratings_summary.json',
    family: 'classic',
    summary: 'Ratings summary',
    query: credentials,
    answers: classicAnswers(classicSuccess('Ratings summary successfully retrieved!', { data: ratingsSummarySchema })),
  },
];
