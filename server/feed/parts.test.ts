// The feed is sent in parts as the reviews come from the database in batches: the document must be the same,
// byte for byte, as the one rendered from all reviews at once, however they are batched.
import { describe, expect, it } from 'vitest';
import type { Review } from '../reviews/model.js';
import { feedParts, renderFeed, type FeedContext } from './feed.js';
import { product, review } from './feed-fixtures.js';

const shop = { id: 12, name: 'Fiets & Co', url: 'https://fiets.example/', logo: 'https://fiets.example/logo.png' };
const ctx = (detailed: boolean): FeedContext => ({
  shop,
  brandName: 'Service',
  baseUrl: 'https://reviews.example',
  detailed,
});

const reviews: Review[] = [
  review({ id: 9, products: [product({ external_id: '1' }), product({ external_id: '2', rating: 3 })] }),
  review({ id: 8, products: [] }),
  review({ id: 7, deleted: true, published: false, announced: true, name: '', email: '', comment: null }),
  review({ id: 6, quarantine: true, published: false, announced: false }),
  review({ id: 5 }),
];

async function joined(batches: Review[][], c: FeedContext): Promise<string> {
  let out = '';
  for await (const part of feedParts(
    (async function* () {
      yield* batches;
    })(),
    c,
  ))
    out += part;
  return out;
}

const batchesOf = (list: Review[], size: number) =>
  Array.from({ length: Math.ceil(list.length / size) }, (_, i) => list.slice(i * size, (i + 1) * size));

describe('feedParts', () => {
  it.each([true, false])('sends the same document as renderFeed in any batching (detailed=%s)', async (detailed) => {
    const whole = renderFeed(reviews, ctx(detailed));
    for (const size of [1, 2, 3, reviews.length])
      expect(await joined(batchesOf(reviews, size), ctx(detailed))).toBe(whole);
  });

  it.each([true, false])('sends the same empty document as renderFeed (detailed=%s)', async (detailed) => {
    expect(await joined([], ctx(detailed))).toBe(renderFeed([], ctx(detailed)));
    const onlyWithdrawn = [reviews[2]!];
    expect(await joined([onlyWithdrawn], ctx(detailed))).toBe(renderFeed(onlyWithdrawn, ctx(detailed)));
  });
});
