import { describe, expect, it } from 'vitest';
import { scriptSafeJson } from './jsonld.js';
import { COUNT_ALL } from '../reviews/rating.js';
import {
  aggregate,
  buildProducts,
  listProductReviews,
  ProductLookup,
  type ProductInfo,
  type ProductReview,
} from './rules.js';

const info = (over: Partial<ProductInfo>): ProductInfo => ({
  external_id: '',
  sku: '',
  gtin: '',
  name: '',
  url: '',
  image: '',
  mpn: '',
  brand: '',
  ...over,
});

const review = (key: string, rating: number, day: number, over: Partial<ProductReview> = {}): ProductReview => ({
  key,
  reviewId: Number(key),
  name: key,
  rating,
  title: '',
  text: '',
  date: new Date(Date.UTC(2026, 0, day)),
  experience_date: '2026-01',
  origin: 'verified_order',
  incentivised: false,
  imported_from: null,
  reply: null,
  photos: [],
  ...over,
});

describe('the counting rule', () => {
  it('counts every review, or leaves incentivised ones out when the policy says so', () => {
    const reviews = [review('1', 5, 1, { incentivised: true }), review('2', 2, 2), review('3', 3, 3)];
    expect(aggregate({ reviews, policy: COUNT_ALL })).toEqual({ count: 3, average: 3.3 });
    expect(aggregate({ reviews, policy: { incentivisedInScore: false } })).toEqual({ count: 2, average: 2.5 });
    expect(aggregate({ reviews: [], policy: COUNT_ALL })).toEqual({ count: 0, average: 0 });
  });
});

describe('products and product=', () => {
  const products = buildProducts([
    {
      info: info({ external_id: 'A', sku: 'S', name: 'old name', url: 'https://x.example/a' }),
      review: review('1', 4, 1),
    },
    { info: info({ external_id: 'A', sku: 'S', name: 'new name' }), review: review('2', 5, 2) },
    { info: info({ sku: 'S', gtin: '123' }), review: review('3', 1, 3) },
    { info: info({ gtin: '999' }), review: review('4', 1, 4) },
    { info: info({}), review: review('5', 1, 5) },
  ]);

  it('groups reviews by identity (id, else SKU, else GTIN), newest first, the newest description filled by older ones', () => {
    expect(products.map((p) => p.key).sort()).toEqual(['gtin:999', 'id:A', 'sku:S']);
    const a = products.find((p) => p.key === 'id:A')!;
    expect(a.reviews.map((r) => r.key)).toEqual(['2', '1']);
    expect(a.info).toMatchObject({ name: 'new name', url: 'https://x.example/a' });
  });

  it('resolves an id first, then a SKU (the product known by its id first), then a GTIN', () => {
    const lookup = new ProductLookup(products);
    expect(lookup.find('A')?.key).toBe('id:A');
    expect(lookup.find(' S ')?.key).toBe('id:A');
    expect(lookup.find('123')?.key).toBe('sku:S');
    expect(lookup.find('999')?.key).toBe('gtin:999');
    expect(lookup.find('')).toBeUndefined();
  });
});

describe('the listing', () => {
  it('filters by stars and photos and sorts as the shop page does, equal ones newest first', () => {
    const reviews = [review('4', 2, 4), review('3', 5, 3), review('2', 2, 2), review('1', 5, 1)];
    const keys = (list: ProductReview[]) => list.map((r) => r.key);
    const none = new Map<number, number>();
    expect(keys(listProductReviews(reviews, { sort: 'oldest', stars: [], photos: false }, none))).toEqual([
      '1',
      '2',
      '3',
      '4',
    ]);
    expect(keys(listProductReviews(reviews, { sort: 'lowest', stars: [], photos: false }, none))).toEqual([
      '4',
      '2',
      '3',
      '1',
    ]);
    expect(keys(listProductReviews(reviews, { sort: 'newest', stars: [5], photos: false }, none))).toEqual(['3', '1']);
    expect(keys(listProductReviews(reviews, { sort: 'helpful', stars: [], photos: false }, new Map([[2, 3]])))).toEqual(
      ['2', '4', '3', '1'],
    );
    expect(listProductReviews(reviews, { sort: 'newest', stars: [], photos: true }, none)).toEqual([]);
  });
});

describe('scriptSafeJson', () => {
  it('writes <, >, &, U+2028 and U+2029 as \\uXXXX, and parses back to the same value', () => {
    const value = { a: '</script><!-- & \u2028\u2029' };
    const text = scriptSafeJson(value);
    expect(text).toBe('{"a":"\\u003c/script\\u003e\\u003c!-- \\u0026 \\u2028\\u2029"}');
    expect(JSON.parse(text)).toEqual(value);
  });
});
