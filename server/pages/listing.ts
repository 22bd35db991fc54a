// The shopper's own choice of order and filter on the shop page (issue 20): `?sort=newest|oldest|highest|lowest|
// helpful&stars=1,2&photos=1`. Never a widget parameter or a shop setting: a shop cannot make its page or widget
// show only good scores. Pure: reading the query (anything unknown is the default) and applying it to the shop's
// published reviews, which the read model holds in memory.
import type { PublicRating } from '../ratings/read-model.js';

export const SORTS = ['newest', 'oldest', 'highest', 'lowest', 'helpful'] as const;
export type Sort = (typeof SORTS)[number];

export interface Listing {
  sort: Sort;
  /** The star ratings shown (1–5, ascending); empty: all. */
  stars: number[];
  /** Only reviews with photos. */
  photos: boolean;
}

export const DEFAULT_LISTING: Listing = { sort: 'newest', stars: [], photos: false };

/** From the query: `stars` as `1,2` (the page's links) or repeated (`stars=1&stars=2`, what the GET form sends). */
export function readListing(query: Record<string, string | string[] | undefined>): Listing {
  const one = (v: unknown) => (typeof v === 'string' ? v : Array.isArray(v) ? v.join(',') : '');
  const sort = one(query.sort);
  const stars = [
    ...new Set(
      one(query.stars)
        .split(',')
        .filter((s) => /^[1-5]$/.test(s.trim()))
        .map((s) => Number(s.trim())),
    ),
  ].sort();
  return {
    sort: (SORTS as readonly string[]).includes(sort) ? (sort as Sort) : 'newest',
    // All five is no filter.
    stars: stars.length === 5 ? [] : stars,
    photos: one(query.photos) === '1',
  };
}

/** The query parameters of a listing, defaults left out (so the plain page keeps its plain address). */
export function listingQuery(listing: Listing): Record<string, string> {
  return {
    ...(listing.sort !== 'newest' ? { sort: listing.sort } : {}),
    ...(listing.stars.length ? { stars: listing.stars.join(',') } : {}),
    ...(listing.photos ? { photos: '1' } : {}),
  };
}

export const isDefaultListing = (listing: Listing) => Object.keys(listingQuery(listing)).length === 0;

/** `reviews` newest first (as the read model keeps them), filtered and in the chosen order; a new array. */
export function applyListing(reviews: readonly PublicRating[], listing: Listing): PublicRating[] {
  const stars = new Set(listing.stars);
  const kept = reviews.filter(
    ({ rating }) => (stars.size === 0 || stars.has(rating.rating)) && (!listing.photos || rating.photos.length > 0),
  );
  // Stable sorts over the newest-first list: equal ones stay newest first.
  switch (listing.sort) {
    case 'oldest':
      return kept.reverse();
    case 'highest':
      return kept.sort((a, b) => b.rating.rating - a.rating.rating);
    case 'lowest':
      return kept.sort((a, b) => a.rating.rating - b.rating.rating);
    case 'helpful':
      return kept.sort((a, b) => (b.rating.helpful ?? 0) - (a.rating.helpful ?? 0));
    default:
      return kept;
  }
}
