// widget_html's product layout (issue 22): one product's reviews in an iframe page, navigated without script, with
// no JSON-LD for the host page; and the configurator saying so.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness.js';
import type { Webshop } from '../webshops/store.js';

let t: TestApp;
let shop: Webshop;
const base = 'https://reviews.example.com';

beforeAll(async () => {
  t = await startTestApp({ BASE_URL: base });
  shop = await t.createShop({ name: 'Fiets & Co' });
  for (let i = 0; i < 12; i++) {
    await t.services.reviews.create(shop.id, {
      name: `Writer ${i}`,
      email: `w${i}@example.com`,
      rating: 4,
      language: 'en',
      created: new Date(Date.UTC(2025, 0, i + 1)),
      products: [
        {
          external_id: 'B-1',
          name: 'City bike',
          url: 'https://fiets.example/city',
          image_url: '',
          sku: 'CB',
          gtin: '',
          mpn: '',
          brand: '',
          rating: (i % 5) + 1,
          content: `Rides well ${i}`,
        },
      ],
    });
  }
});
afterAll(() => t.close());

const widget = (query: string, headers: Record<string, string> = {}) =>
  t.fetch(`/webshops/widget_html?id=${shop.id}&layout=product&${query}`, { headers });
/** How the browser marks a navigation by the frame's own links and form (the shopper's choice). */
const insideFrame = { 'Sec-Fetch-Site': 'same-origin', 'Sec-Fetch-Dest': 'iframe' };

describe('GET /webshops/widget_html?layout=product', () => {
  it("lists the product's reviews in a page of its own, paged inside the frame, with no JSON-LD", async () => {
    const res = await widget('product=CB&language=eng');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain('frame-ancestors *');
    expect(csp).toContain(`form-action 'self' ${base}`);
    const html = await res.text();
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).toContain('<title>Reviews of City bike</title>');
    expect(html).toMatch(/<section class="pr" data-count="12" data-average="2\.8" data-pages="2" data-page="1"/);
    expect(html).not.toContain('application/ld+json');
    expect(html).not.toContain('<script');
    // No script runs in the frame: the votes are a count, not a button.
    expect(html).not.toContain('data-helpful');
    const self = `${base}/webshops/widget_html?id=${shop.id}&amp;layout=product&amp;product=CB&amp;language=en&amp;theme=light`;
    expect(html).toContain(`<a href="${self}&amp;page=2&amp;sort=newest" data-query="page=2&amp;sort=newest">`);
    expect(html).toContain(`action="${base}/webshops/widget_html"`);
    expect(html).toContain('<input type="hidden" name="layout" value="product"/>');

    const second = await (await widget('product=B-1&page=2&sort=oldest&theme=dark', insideFrame)).text();
    expect(second).toContain('data-page="2"');
    expect(second).toContain('data-theme="dark"');
    expect(second).toContain('Writer 11');
  });

  it("takes the sort and star filter from the shopper's navigation inside the frame, never from the shop's page", async () => {
    // A shop's page framing only five-star reviews: loaded cross-site, the frame starts at newest, every score.
    const framed = await widget('product=CB&stars=5&sort=highest', {
      'Sec-Fetch-Site': 'cross-site',
      'Sec-Fetch-Dest': 'iframe',
    });
    expect(framed.headers.get('vary')).toContain('Sec-Fetch-Site');
    expect(await framed.text()).toMatch(/<section class="pr" data-count="12"[^>]* data-pages="2"/);
    const chosen = await (await widget('product=CB&stars=5', insideFrame)).text();
    expect(chosen).toMatch(/data-pages="1"/);
    expect(chosen).not.toContain('Writer 0<');
  });

  it('shows the empty state for a product without reviews, and a readable 400 or 404 for bad input', async () => {
    const none = await widget('product=nothing');
    expect(none.status).toBe(200);
    expect(await none.text()).toContain('<section class="pr pr--empty" data-count="0"');
    const missing = await widget('');
    expect(missing.status).toBe(400);
    expect(await missing.text()).toContain('The parameter product is required');
    expect((await widget('product=CB&theme=pink')).status).toBe(400);
    expect((await t.fetch('/webshops/widget_html?id=99999999&layout=product&product=CB')).status).toBe(404);
  });

  it('leaves the other layouts as they were', async () => {
    const html = await (await t.fetch(`/webshops/widget_html?id=${shop.id}&layout=new_default`)).text();
    expect(html).not.toContain('class="pr"');
  });
});

describe('the configurator', () => {
  it('offers the product layout and says that an iframe carries no JSON-LD for the host page', async () => {
    const html = await (await t.fetch(`/webshops/widget?id=${shop.id}`)).text();
    expect(html).toContain('layout=product&amp;product=PRODUCT_ID');
    expect(html).toContain('An iframe carries no structured data (JSON-LD) for your product page');
  });
});
