import { describe, expect, it } from 'vitest';
import { parseFormEncoded } from '../http/body.js';
import { formProblems, readReviewForm } from './form.js';
import { COUNTRIES, jsonForScript, shopJsonLd } from './html.js';
import { PAGE_STRINGS, stringsFor } from './strings.js';

const t = stringsFor('en');

describe('the review form', () => {
  it('reads scores, text and products from a urlencoded body', () => {
    const values = readReviewForm(
      parseFormEncoded(
        'rating=4&shippingtime=5&aftersale=0&comment=a%0D%0Ab&name=+Jane++D.+&country=be&product_0_rating=3&product_0_content=ok',
      ),
      2,
    );
    expect(values).toEqual({
      rating: 4,
      ratings: { shippingtime: 5, customerservice: 0, pricequality: 0, aftersale: 0 },
      comment: 'a\nb',
      name: 'Jane D.',
      country: 'BE',
      products: [
        { rating: 3, content: 'ok' },
        { rating: null, content: '' },
      ],
    });
    expect(formProblems(values, t, COUNTRIES)).toEqual([]);
  });

  it('names every problem with the control it belongs to', () => {
    const values = readReviewForm(parseFormEncoded(`rating=9&name=&country=ZZ&comment=${'x'.repeat(5001)}`), 0);
    expect(formProblems(values, t, COUNTRIES).map((p) => p.field)).toEqual(['rating-1', 'comment', 'name', 'country']);
  });

  it('treats arrays, objects and operators as no answer', () => {
    const values = readReviewForm(parseFormEncoded('rating[$gt]=0&name[]=x&shippingtime=6'), 0);
    expect(values.rating).toBeNull();
    expect(values.name).toBe('');
    expect(values.ratings.shippingtime).toBe(0);
  });
});

describe('JSON-LD', () => {
  it('cannot end its script element, whatever the shop is called', () => {
    const text = jsonForScript({ name: '</script><script>alert(1)</script> & \u2028' });
    expect(text).not.toMatch(/[<>&\u2028]/);
    expect(JSON.parse(text)).toEqual({ name: '</script><script>alert(1)</script> & \u2028' });
  });

  it('rates the shop on the 1–10 scale with explicit best and worst, only when there are reviews', () => {
    const shop = { name: 'Fiets', url: 'https://fiets.example/', logo: '' };
    expect(shopJsonLd(shop, 'https://r.example/webshops/1', 8.6, 12).aggregateRating).toEqual({
      '@type': 'AggregateRating',
      ratingValue: 8.6,
      bestRating: 10,
      worstRating: 1,
      ratingCount: 12,
    });
    expect(shopJsonLd(shop, 'https://r.example/webshops/1', 0, 0)).not.toHaveProperty('aggregateRating');
  });
});

describe('page strings', () => {
  it('exist in all seven languages, with no blank text', () => {
    expect(Object.keys(PAGE_STRINGS).sort()).toEqual(['de', 'en', 'es', 'fr', 'hr', 'it', 'nl']);
    for (const strings of Object.values(PAGE_STRINGS)) {
      for (const [key, value] of Object.entries(strings)) {
        const sample = typeof value === 'function' ? value(2, '2') : value;
        expect(typeof sample === 'string' ? sample.trim() : Object.values(sample).join(''), key).not.toBe('');
      }
    }
  });
});
