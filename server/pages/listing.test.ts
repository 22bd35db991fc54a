import { describe, expect, it } from 'vitest';
import type { PublicRating } from '../ratings/read-model.js';
import type { Rating } from '../reviews/rating.js';
import { applyListing, listingQuery, readListing } from './listing.js';

/** Newest first, as the read model keeps them: ids 1 (newest) … 6. */
const reviews: PublicRating[] = [
  { id: 1, rating: 2, helpful: 0, photos: [] },
  { id: 2, rating: 5, helpful: 3, photos: [{}] },
  { id: 3, rating: 1, helpful: 1, photos: [] },
  { id: 4, rating: 5, helpful: 0, photos: [] },
  { id: 5, rating: 2, helpful: 3, photos: [{}] },
  { id: 6, rating: 4, helpful: 7, photos: [] },
].map((r) => ({ rating: r as unknown as Rating, verified: false }));

const ids = (list: PublicRating[]) => list.map((r) => r.rating.id);

describe('the shop page listing', () => {
  it('sorts each way, equal ones newest first', () => {
    const sorted = (sort: string) => ids(applyListing(reviews, readListing({ sort })));
    expect(sorted('newest')).toEqual([1, 2, 3, 4, 5, 6]);
    expect(sorted('oldest')).toEqual([6, 5, 4, 3, 2, 1]);
    expect(sorted('highest')).toEqual([2, 4, 6, 1, 5, 3]);
    expect(sorted('lowest')).toEqual([3, 1, 5, 6, 2, 4]);
    expect(sorted('helpful')).toEqual([6, 2, 5, 3, 1, 4]);
  });

  it('filters by stars and by photos, together with a sort', () => {
    expect(ids(applyListing(reviews, readListing({ stars: '1,2' })))).toEqual([1, 3, 5]);
    expect(ids(applyListing(reviews, readListing({ stars: ['2', '1'] })))).toEqual([1, 3, 5]);
    expect(ids(applyListing(reviews, readListing({ photos: '1' })))).toEqual([2, 5]);
    expect(ids(applyListing(reviews, readListing({ stars: '2,5', photos: '1', sort: 'lowest' })))).toEqual([5, 2]);
  });

  it('reads anything unknown as the default, and writes only what differs from it', () => {
    expect(readListing({ sort: '$where', stars: '0,6,x,{"$gt":1}', photos: 'yes' })).toEqual({
      sort: 'newest',
      stars: [],
      photos: false,
    });
    expect(readListing({ stars: '1,2,3,4,5' }).stars).toEqual([]);
    expect(listingQuery(readListing({}))).toEqual({});
    expect(listingQuery(readListing({ sort: 'lowest', stars: '2,1', photos: '1' }))).toEqual({
      sort: 'lowest',
      stars: '1,2',
      photos: '1',
    });
  });
});
