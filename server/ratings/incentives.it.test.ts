// Issue 21, "Incentives": how incentivised reviews count is the operator's policy (INCENTIVISED_IN_SCORE). By
// default like any review (the spec's figures unchanged); with 0 they are left out of every score the service shows
// or serves: ratings_summary.json, fetch_domain.json, the embed's shop.json, the widget and its badges, the rich
// snippet, the shop page, the product figures (JSON-LD, block, product widget) and the dashboard's overview;
// webshop.json carries no score. They stay published and labelled either way, and the policy
// page says how they count.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, withAuth, type TestApp } from '../../test/harness.js';
import { signedInAgent } from '../accounts/test-session.js';
import type { Webshop } from '../webshops/store.js';
import { LAYOUT_INFO } from '../../widget/layouts.js';

// Two incentivised 5-star reviews and one 1-star review that was not: 2 × 11/3 = 7.3 over all three, 2 over the one.
// The product's figures are on the 1–5 scale: 11/3 = 3.7 over all three, 1 over the one.
const POLICIES = [
  { env: '1', score: 7.3, count: 3, sub: 3.7, product: 3.7 },
  { env: '0', score: 2, count: 1, sub: 1, product: 1 },
] as const;

describe.each(POLICIES)('INCENTIVISED_IN_SCORE=$env', (policy) => {
  let t: TestApp;
  let shop: Webshop;
  let token: string;

  beforeAll(async () => {
    t = await startTestApp({ INCENTIVISED_IN_SCORE: policy.env });
    shop = await t.createShop({ name: 'Fiets & Co', url: 'https://fiets.example/' });
    const sub = (n: number) => ({ shippingtime: n, customerservice: 0, pricequality: 0, aftersale: 0 });
    for (const [rating, incentivised] of [
      [5, true],
      [5, true],
      [1, false],
    ] as const) {
      await t.services.reviews.create(shop.id, {
        name: 'R',
        email: 'r@example.com',
        rating,
        ratings: sub(rating),
        language: 'en',
        comment: 'A review',
        incentivised,
        // Each review also scores one product the same (the product figures of issue 19).
        products: [
          {
            external_id: 'P-1',
            name: 'Bike',
            url: 'https://fiets.example/bike',
            image_url: '',
            sku: 'SKU-1',
            gtin: '',
            mpn: '',
            brand: '',
            rating,
            content: 'The bike',
          },
        ],
      });
    }
    token = (await (await t.admin('/admin/api/tokens', { method: 'POST', json: { label: 'P' } })).json()).token;
  });
  afterAll(() => t.close());

  it('ratings_summary.json: amount, rating_average and ratings_average', async () => {
    const body = await (await t.fetch(withAuth('/api/1.0/ratings_summary.json', shop))).json();
    expect(body.data).toMatchObject({
      amount: policy.count,
      rating_average: policy.score,
      ratings_average: { shippingtime: policy.sub },
    });
  });

  it('fetch_domain.json and the embed’s shop.json', async () => {
    const [record] = await (
      await t.fetch(`/webshops/fetch_domain.json?${new URLSearchParams({ token, url: 'fiets.example' })}`)
    ).json();
    expect(record).toMatchObject({ rating: policy.score, rating_count: policy.count });
    const embed = await (await t.fetch(`/embed/${shop.id}/shop.json`)).json();
    expect(embed).toMatchObject({ score: policy.score, count: policy.count });
  });

  it('every widget layout and the rich snippet', async () => {
    for (const layout of Object.keys(LAYOUT_INFO)) {
      const html = await (await t.fetch(`/webshops/widget_html?id=${shop.id}&layout=${layout}&lang=en`)).text();
      expect(html, layout).toContain(`itemprop="ratingValue" content="${policy.score}"`);
      expect(html, layout).toContain(`itemprop="ratingCount" content="${policy.count}"`);
    }
    const snippet = await (await t.fetch(`/webshops/rich_snippet?id=${shop.id}&lang=en`)).json();
    expect(snippet.content).toContain(`itemprop="ratingValue" content="${policy.score}"`);
    expect(snippet.content).toContain(`itemprop="ratingCount" content="${policy.count}"`);
  });

  it('the shop page: its average, while every published review is still listed and labelled', async () => {
    const html = await (await t.fetch(`/webshops/${shop.id}?lang=en`)).text();
    expect(html).toContain(`"ratingValue":${policy.score}`);
    expect(html).toContain(`"ratingCount":${policy.count}`);
    // All three are published and shown, the incentivised ones labelled.
    expect(html.match(/A review/g)?.length).toBe(3);
    expect(html).toContain('Incentivised');
  });

  it('webshop.json carries no score under either policy: nothing there to leave out', async () => {
    const body = await (await t.fetch(withAuth('/api/1.0/webshop.json', shop))).json();
    expect(body.status).toBe('success');
    expect(Object.keys(body.data).sort()).toEqual(['address', 'languages', 'logo', 'name']);
  });

  it('the product figures: the product JSON-LD and the product block, while every review is still listed', async () => {
    for (const part of ['rating', '']) {
      const res = await t.fetch(`/webshops/${shop.id}/products/jsonld?product=P-1${part ? `&part=${part}` : ''}`);
      expect(res.status).toBe(200);
      expect((await res.json()).aggregateRating, part).toMatchObject({
        ratingValue: policy.product,
        reviewCount: policy.count,
      });
    }
    const html = await (await t.fetch(`/webshops/${shop.id}/products/reviews.html?product=P-1&lang=en`)).text();
    expect(html).toContain(`data-count="${policy.count}"`);
    expect(html).toContain(`data-average="${policy.product.toFixed(1)}"`);
    expect(html.match(/The bike/g)?.length).toBe(3);
    const widget = await (await t.fetch(`/webshops/widget_html?id=${shop.id}&layout=product&product=P-1`)).text();
    expect(widget).toContain(`data-count="${policy.count}"`);
  });

  it('the dashboard overview', async () => {
    const { headers } = await signedInAgent(t, { email: 'owner@fiets.example', shopId: shop.id, role: 'owner' });
    const body = await (await t.fetch(`/dashboard/api/shops/${shop.id}/overview`, { headers })).json();
    expect(body).toMatchObject({ score: policy.score, count: policy.count });
  });

  it('the policy page says how many there are and how they count', async () => {
    const html = await (await t.fetch(`/webshops/${shop.id}/policy?lang=en`)).text();
    expect(html).toContain('2 of 3 published reviews were written for an incentive');
    expect(html).toContain(
      policy.env === '1'
        ? 'They count in the shop’s score like any other review.'
        : 'They are left out of the shop’s score and of the number of reviews beside it',
    );
  });
});
