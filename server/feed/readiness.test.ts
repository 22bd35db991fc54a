import { describe, expect, it } from 'vitest';
import { productIdentity, productReviewsOf } from './google-feed.js';
import { product, review } from './feed-fixtures.js';
import { ReadinessCounter, readinessOf } from './readiness.js';

describe('which product reviews go to Google', () => {
  it('takes a published review’s products with text and an http(s) URL; says why the others stay out', () => {
    const r = review({
      comment: null,
      products: [
        product({ content: 'Good' }),
        product({ content: '' }),
        product({ content: 'Good', url: 'javascript:alert(1)' }),
        product({ content: 'Good', url: 'ftp://shop.example/x' }),
      ],
    });
    expect(productReviewsOf(r).map((p) => p.leftOut)).toEqual([null, 'no_text', 'no_url', 'no_url']);
  });

  it('never looks at unpublished or imported reviews', () => {
    expect(productReviewsOf(review({ published: false }))).toEqual([]);
    expect(productReviewsOf(review({ source: 'import', verified: false }))).toEqual([]);
    expect(productReviewsOf(review({ origin: 'imported' }))).toEqual([]);
  });

  it('identifies a product by the order data’s id, else its SKU, else its GTIN', () => {
    expect(productIdentity(product({ external_id: '7', sku: 'S', gtin: '8712345678906' }))).toBe('id:7');
    expect(productIdentity(product({ external_id: '', sku: 'S', gtin: '8712345678906' }))).toBe('sku:S');
    expect(productIdentity(product({ external_id: '', sku: '', gtin: '8712-3456-78906' }))).toBe('gtin:8712345678906');
  });
});

describe('readiness figures', () => {
  const now = new Date('2026-06-15T12:00:00Z');

  it('moves the 12-month window when read, without a rebuild', () => {
    const counter = new ReadinessCounter(now);
    counter.add(review({ id: 1, created: new Date('2025-07-01T00:00:00Z'), country: 'NL', rating: 4 }));
    counter.add(review({ id: 2, created: new Date('2026-06-01T00:00:00Z'), country: 'NL', rating: 2 }));
    const tally = counter.result();
    expect(readinessOf(tally, now).store_reviews_12_months.countries).toEqual([
      { country: 'NL', reviews: 2, meets: false },
    ]);
    const later = readinessOf(tally, new Date('2026-07-15T12:00:00Z'));
    expect(later.store_reviews_12_months.countries).toEqual([{ country: 'NL', reviews: 1, meets: false }]);
    expect(later.average_score.store).toBe(2);
    expect(later.average_score.meets).toBe(false);
  });

  it('counts imported reviews apart, in no figure of the feed', () => {
    const counter = new ReadinessCounter(now);
    counter.add(
      review({ id: 3, source: 'import', verified: false, created: now, products: [product({ content: 'x' })] }),
    );
    const figures = readinessOf(counter.result(), now);
    expect(figures.imported_reviews).toBe(1);
    expect(figures.product_reviews.count).toBe(0);
    expect(figures.store_reviews_12_months.countries).toEqual([]);
    expect(figures.average_score.store).toBeNull();
  });
});
