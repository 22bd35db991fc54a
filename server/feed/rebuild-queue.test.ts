// The rules of the queued feed rebuilds (rebuild-queue.ts): which writes change what Google has, which shops use
// their feed.
import { describe, expect, it } from 'vitest';
import type { Review } from '../reviews/model.js';
import { product, review } from './feed-fixtures.js';
import { changesSent, FEED_IN_USE_DAYS, feedInUse } from './rebuild-queue.js';

const sent = (over: Partial<Review> = {}): Review =>
  review({
    published: true,
    deleted: false,
    source: 'invitation',
    verified: true,
    comment: 'Goed',
    version: 2,
    products: [product({ url: 'https://shop.example/fiets', content: 'Fijne fiets' })],
    ...over,
  });

describe('changesSent', () => {
  it('counts a removal, an unpublication, an erasure and an edit of a review in the feed', () => {
    const before = sent();
    expect(changesSent(before, { ...before, deleted: true, published: false })).toBe(true);
    expect(changesSent(before, { ...before, published: false })).toBe(true);
    expect(changesSent(before, { ...before, name: 'Anoniem' })).toBe(true);
    expect(
      changesSent(before, { ...before, products: [product({ url: 'https://shop.example/fiets', content: 'Anders' })] }),
    ).toBe(true);
  });

  it('ignores a new review, one never in the feed, and a change the feed does not send', () => {
    expect(changesSent(undefined, sent({ version: 1 }))).toBe(false);
    const ratingOnly = sent({ comment: null, products: [product({ url: 'https://shop.example/fiets', content: '' })] });
    expect(changesSent(ratingOnly, { ...ratingOnly, deleted: true, published: false })).toBe(false);
    const imported = sent({ source: 'import', verified: false });
    expect(changesSent(imported, { ...imported, published: false })).toBe(false);
    const before = sent();
    expect(changesSent(before, { ...before, read: !before.read, email: 'ander@example.com' })).toBe(false);
  });

  it('counts a repair (its earlier state is unknown)', () => {
    expect(changesSent(undefined, sent({ version: 3 }))).toBe(true);
  });
});

describe('feedInUse', () => {
  const now = new Date('2026-06-30T12:00:00Z');
  const daysAgo = (days: number) => new Date(now.getTime() - days * 86_400_000);
  it('is a key fetched within the last FEED_IN_USE_DAYS', () => {
    expect(feedInUse(null, now)).toBe(false);
    expect(feedInUse({ lastFetched: null }, now)).toBe(false);
    expect(feedInUse({ lastFetched: daysAgo(1) }, now)).toBe(true);
    expect(feedInUse({ lastFetched: daysAgo(FEED_IN_USE_DAYS) }, now)).toBe(true);
    expect(feedInUse({ lastFetched: daysAgo(FEED_IN_USE_DAYS + 1) }, now)).toBe(false);
  });
});
