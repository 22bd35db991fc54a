// What a webhook delivery says, and when a failed one is tried again: pure rules, no I/O.
import { createHmac } from 'node:crypto';
import { toRating } from '../reviews/rating.js';
import type { Review, ReviewTopic } from '../reviews/model.js';

/**
 * The JSON body for an event. created/updated: the review exactly as ratings.json lists it. deleted: `id` and
 * `deleted: true` plus what a deletion keeps (scores, dates, country, flags); name, e-mail and text are gone.
 */
export function payloadFor(topic: ReviewTopic, review: Review, baseUrl = '', helpful?: number): string {
  const rating = toRating(review, baseUrl);
  if (topic !== 'reviews.deleted') return JSON.stringify(helpful === undefined ? rating : { ...rating, helpful });
  const { id, name: _n, email: _e, comment: _c, reply: _r, reply_date: _d, photos: _p, helpful: _h, ...kept } = rating;
  return JSON.stringify({ id, deleted: true, ...kept });
}

/** `X-Hash`: lowercase hex HMAC-SHA512 of the exact body bytes, keyed with the subscription secret. */
export function signature(body: string, secret: string): string {
  return createHmac('sha512', secret).update(body, 'utf8').digest('hex');
}

/**
 * After `failures` failed attempts in a row (1 after the first): the delay before the next attempt, or undefined
 * when the schedule is used up and the delivery has failed.
 */
export function retryDelayMs(scheduleSeconds: readonly number[], failures: number): number | undefined {
  const seconds = scheduleSeconds[failures - 1];
  return seconds === undefined ? undefined : seconds * 1000;
}

/** An HTTP status counts as delivered only when it is 2xx; redirects are not followed and count as failures. */
export const isDelivered = (status: number | null): boolean => status !== null && status >= 200 && status < 300;
