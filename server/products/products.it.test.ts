// The product surfaces (issue 22) against the real database: the index kept current as reviews change, product=
// resolved by id, then SKU, then GTIN, the fragment's paging, sort, filter, empty state and escaping, the JSON-LD
// against fixtures, `</script>` inside a review, non-http URLs dropped, 404 without reviews, part=rating, ETag/304.
import { request } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { buildApp } from '../app.js';
import { createLogger } from '../log.js';
import type { ImportedProductReview } from '../imports/product-review-store.js';
import type { NewReview, ReviewProduct } from '../reviews/model.js';
import type { Webshop } from '../webshops/store.js';
import { ProductIndex } from './read-model.js';

let t: TestApp;
let shop: Webshop;

const product = (over: Partial<ReviewProduct> = {}): ReviewProduct => ({
  external_id: 'P-1',
  name: 'Blue Kettle',
  url: 'https://shop.example/kettle',
  image_url: 'https://shop.example/kettle.jpg',
  sku: 'SKU-1',
  gtin: '4006381333931',
  mpn: 'KT-100',
  brand: 'Acme',
  rating: 5,
  content: '',
  ...over,
});

const review = (shopId: number, over: Partial<NewReview> = {}) =>
  t.services.reviews.create(shopId, {
    name: 'Ann',
    email: 'ann@example.com',
    rating: 4,
    language: 'en',
    verified: true,
    source: 'invitation',
    ...over,
  });

const imported = (shopId: number, over: Partial<ImportedProductReview> = {}): ImportedProductReview => ({
  _id: `${shopId}|judge.me:1`,
  shopId,
  import_id: 'imp-1',
  product: {
    external_id: 'P-1',
    sku: 'SKU-1',
    gtin: '',
    handle: 'blue-kettle',
    name: 'Blue Kettle',
    url: 'https://shop.example/kettle',
    image_url: '',
    brand: '',
    mpn: '',
  },
  rating: 3,
  title: 'Fine',
  text: 'Boils water.',
  name: 'Cleo',
  email: 'cleo@example.com',
  country: 'NL',
  origin: 'imported',
  imported_from: 'Judge.me',
  original_date: new Date('2025-01-10T00:00:00Z'),
  experience_date: null,
  incentivised: false,
  source_verified: true,
  reply: null,
  photo_urls: [],
  status: 'published',
  source_status: '',
  removal_ground: null,
  created: new Date('2026-01-01T00:00:00Z'),
  modified: new Date('2026-01-01T00:00:00Z'),
  ...over,
});

const fragment = (shopId: number, query: string) => t.fetch(`/webshops/${shopId}/products/reviews.html?${query}`);
const jsonld = (shopId: number, query: string) => t.fetch(`/webshops/${shopId}/products/jsonld?${query}`);
/** A plain HTTP GET: fetch() adds `Cache-Control: no-cache` to a conditional request, which defeats 304. */
function statusOf(path: string, headers: Record<string, string>): Promise<number> {
  return new Promise((ok, fail) => {
    request(t.url + path, { headers }, (res) => {
      res.resume();
      res.on('end', () => ok(res.statusCode!));
    })
      .on('error', fail)
      .end();
  });
}
const names = (html: string) => [...html.matchAll(/<strong>([^<]+)<\/strong><time/g)].map((m) => m[1]);

beforeAll(async () => {
  t = await startTestApp();
  shop = await t.createShop({ name: 'Kettle & Co' });
});
afterAll(() => t.close());

describe('the product index', () => {
  it('follows new reviews, removed reviews and imported product reviews', async () => {
    const s = await t.createShop();
    expect((await jsonld(s.id, 'product=P-1')).status).toBe(404);
    const first = await review(s.id, { products: [product({ content: 'Great kettle' })] });
    let body = await (await jsonld(s.id, 'product=P-1&part=rating')).json();
    expect(body.aggregateRating).toMatchObject({ ratingValue: 5, reviewCount: 1 });

    await t.services.productReviews.insert([imported(s.id)]);
    body = await (await jsonld(s.id, 'product=P-1&part=rating')).json();
    expect(body.aggregateRating).toMatchObject({ ratingValue: 4, reviewCount: 2 });

    await t.services.reviews.softDelete(first.id);
    body = await (await jsonld(s.id, 'product=P-1&part=rating')).json();
    expect(body.aggregateRating).toMatchObject({ ratingValue: 3, reviewCount: 1 });
    expect(body.review[0].author.name).toBe('Cleo');

    // A review in quarantine is not published: nothing changes; a product without its own rating is not reviewed.
    await review(s.id, { quarantine: true, products: [product({ rating: 1 })] });
    await review(s.id, { products: [product({ rating: null })] });
    body = await (await jsonld(s.id, 'product=P-1&part=rating')).json();
    expect(body.aggregateRating.reviewCount).toBe(1);
  });

  it('resolves product= by id, then SKU, then GTIN', async () => {
    const s = await t.createShop();
    await review(s.id, { name: 'ById', products: [product({ external_id: 'X', sku: 'Y', gtin: '4006381333931' })] });
    // A second product whose id is the first one's SKU: the id wins.
    await review(s.id, {
      name: 'OtherById',
      products: [product({ external_id: 'Y', sku: '', gtin: '', name: 'Other' })],
    });
    await review(s.id, {
      name: 'BySku',
      products: [product({ external_id: '', sku: 'S-9', gtin: '', name: 'Sku only' })],
    });
    const nameOf = async (q: string) => (await (await jsonld(s.id, `product=${q}`)).json()).name;
    expect(await nameOf('X')).toBe('Blue Kettle');
    expect(await nameOf('Y')).toBe('Other');
    expect(await nameOf('S-9')).toBe('Sku only');
    expect(await nameOf('4006381333931')).toBe('Blue Kettle');
    expect((await jsonld(s.id, 'product=nothing')).status).toBe(404);
  });
});

describe('the product index, changed in place', () => {
  const figures = (html: string) => /data-count="(\d+)" data-average="([\d.]+)"/.exec(html)!.slice(1).join(' ');

  it('shows a changed, removed and added product review at once on the fragment and JSON-LD, never reading the shop whole again', async () => {
    const s = await t.createShop();
    const ann = await review(s.id, { name: 'Ann', products: [product({ rating: 5, content: 'Lovely' })] });
    const bob = await review(s.id, {
      name: 'Bob',
      email: 'bob@example.com',
      products: [product({ rating: 3, content: 'Fine' })],
    });
    const wholeReads = vi.spyOn(t.services.reviews, 'publishedForProducts');
    try {
      const page = async () => (await fragment(s.id, 'product=P-1&lang=en')).text();
      const ld = async () => (await jsonld(s.id, 'product=P-1')).json();
      let html = await page();
      expect(figures(html)).toBe('2 4.0');
      expect(wholeReads).toHaveBeenCalledTimes(1);

      // Changed: the product's rating and words.
      await t.services.reviews.update(bob.id, { products: [product({ rating: 1, content: 'Broke after a week' })] });
      html = await page();
      expect(figures(html)).toBe('2 3.0');
      expect(html).toContain('Broke after a week');
      expect(html).not.toContain('>Fine<');

      // Removed.
      await t.services.reviews.softDelete(ann.id);
      html = await page();
      expect(figures(html)).toBe('1 1.0');
      expect(names(html)).toEqual(['Bob']);
      let body = await ld();
      expect(body.aggregateRating).toMatchObject({ ratingValue: 1, reviewCount: 1 });

      // Added, and a quarantined one that is not shown.
      await review(s.id, { name: 'Cy', email: 'cy@example.com', products: [product({ rating: 4, content: 'Good' })] });
      await review(s.id, { name: 'Q', email: 'q@example.com', quarantine: true, products: [product({ rating: 1 })] });
      html = await page();
      expect(figures(html)).toBe('2 2.5');
      expect(names(html)).toEqual(['Cy', 'Bob']);
      body = await ld();
      expect(body.aggregateRating).toMatchObject({ ratingValue: 2.5, reviewCount: 2 });
      expect(body.review.map((r: { author: { name: string } }) => r.author.name)).toEqual(['Cy', 'Bob']);

      // A product of its own appears, and goes when its only review is removed.
      const own = await review(s.id, {
        name: 'Dee',
        email: 'dee@example.com',
        products: [product({ external_id: 'P-2', sku: 'SKU-2', gtin: '', name: 'Red Mug', rating: 5 })],
      });
      expect((await (await jsonld(s.id, 'product=SKU-2')).json()).name).toBe('Red Mug');
      await t.services.reviews.softDelete(own.id);
      expect((await jsonld(s.id, 'product=SKU-2')).status).toBe(404);

      // Imported product reviews: that part read again, not the shop's reviews.
      await t.services.productReviews.insert([imported(s.id)]);
      expect(figures(await page())).toBe('3 2.7');
      expect(wholeReads).toHaveBeenCalledTimes(1);
    } finally {
      wholeReads.mockRestore();
    }
  });

  it('shows another process’s changes after the cache’s TTL, by reading what changed, not the shop whole', async () => {
    const ttlMs = 300;
    const config = { ...t.services.config, cache: { ...t.services.config.cache, ttlMs } };
    const other = await buildApp({ config, db: t.db as never, log: createLogger('silent') });
    const server = createServer(other.app.callback());
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    const otherUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const wholeReads = vi.spyOn(other.services.reviews, 'publishedForProducts');
    const page = async (shopId: number) =>
      (await fetch(`${otherUrl}/webshops/${shopId}/products/reviews.html?product=P-1&lang=en`)).text();
    const afterTtl = () => new Promise((done) => setTimeout(done, ttlMs + 100));
    try {
      const s = await t.createShop();
      const ann = await review(s.id, { name: 'Ann', products: [product({ rating: 5 })] });
      expect(figures(await page(s.id))).toBe('1 5.0');
      expect(wholeReads).toHaveBeenCalledTimes(1);

      // Written by this test's app (another process for `other`): added, changed, removed.
      const bob = await review(s.id, { name: 'Bob', email: 'bob@example.com', products: [product({ rating: 3 })] });
      await afterTtl();
      expect(figures(await page(s.id))).toBe('2 4.0');
      await t.services.reviews.update(bob.id, { products: [product({ rating: 1 })] });
      await afterTtl();
      expect(figures(await page(s.id))).toBe('2 3.0');
      await t.services.reviews.softDelete(ann.id);
      await afterTtl();
      const html = await page(s.id);
      expect(figures(html)).toBe('1 1.0');
      expect(names(html)).toEqual(['Bob']);
      await t.services.productReviews.insert([imported(s.id)]);
      await afterTtl();
      expect(figures(await page(s.id))).toBe('2 2.0');
      // Its own write applies at once, and is not taken for another process's (no read of changes needed).
      await other.services.reviews.create(s.id, {
        name: 'Cy',
        email: 'cy@example.com',
        rating: 4,
        language: 'en',
        verified: true,
        source: 'invitation',
        products: [product({ rating: 5 })],
      });
      expect(figures(await page(s.id))).toBe('3 3.0');
      expect(wholeReads).toHaveBeenCalledTimes(1);
    } finally {
      wholeReads.mockRestore();
      server.closeAllConnections();
      await new Promise((done) => server.close(done));
      other.services.mailer.close();
    }
  });
});

describe('a shop too large to hold', () => {
  it('is asked per product by indexed queries, id then SKU then GTIN, imported product reviews included', async () => {
    const s = await t.createShop();
    await review(s.id, { name: 'One', products: [product({ external_id: 'X', sku: 'Y', gtin: '4006381333931' })] });
    await review(s.id, { name: 'Two', products: [product({ external_id: 'X', sku: 'Y' })] });
    await review(s.id, { name: 'Other', products: [product({ external_id: 'Y', sku: '', gtin: '' })] });
    await t.services.productReviews.insert([
      imported(s.id, { product: { ...imported(s.id).product, external_id: 'X', sku: 'Y' } }),
    ]);
    const services = t.services;
    const index = new ProductIndex(
      services.reviews,
      services.productReviews,
      services.caches.cache('products-large-test'),
      '',
      2,
    );
    expect(await index.all(s.id)).toBeNull();
    expect((await index.find(s.id, 'X'))?.reviews.map((r) => r.name)).toEqual(['Two', 'One', 'Cleo']);
    expect((await index.find(s.id, 'Y'))?.reviews.map((r) => r.name)).toEqual(['Other']);
    expect((await index.find(s.id, '4006381333931'))?.reviews.map((r) => r.name)).toEqual(['Two', 'One']);
    expect(await index.find(s.id, 'nothing')).toBeUndefined();
  });
});

describe('GET /webshops/{id}/products/reviews.html', () => {
  let paged: Webshop;
  beforeAll(async () => {
    paged = await t.createShop({ name: 'Paged' });
    for (let i = 0; i < 23; i++) {
      await review(paged.id, {
        name: `Writer ${i}`,
        email: `w${i}@example.com`,
        created: new Date(Date.UTC(2025, 0, i + 1)),
        products: [product({ rating: (i % 5) + 1, content: `Text ${i}` })],
      });
    }
  });

  it('answers a fragment: style, then one section with its figures, ten reviews a page', async () => {
    const res = await fragment(paged.id, 'product=P-1&lang=en');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('cache-control')).toBe('public, max-age=60');
    const html = await res.text();
    expect(html.startsWith('<style>')).toBe(true);
    expect(html).not.toMatch(/<html|<body/);
    expect(html.match(/<section /g)).toHaveLength(1);
    expect(html).toMatch(/<section class="pr" data-count="23" data-average="2\.9" data-pages="3" data-page="1"/);
    expect(names(html)).toHaveLength(10);
    expect(names(html)[0]).toBe('Writer 22');
    const base = `${t.services.config.baseUrl}/webshops/${paged.id}/products/reviews.html?product=P-1&amp;lang=en&amp;theme=light`;
    expect(html).toContain(`<a href="${base}&amp;page=2&amp;sort=newest" data-query="page=2&amp;sort=newest">`);
    expect(html).toContain('<form data-product-filter method="get"');
    expect(html).toContain(`<a href="${base}" data-query>`);

    const third = await (await fragment(paged.id, 'product=P-1&lang=en&page=3')).text();
    expect(third).toContain('data-page="3"');
    expect(names(third)).toEqual(['Writer 2', 'Writer 1', 'Writer 0']);
    // Past the last page: the last page.
    expect(await (await fragment(paged.id, 'product=P-1&lang=en&page=99')).text()).toContain('data-page="3"');
  });

  it('sorts and filters as the shopper asks, and keeps the choice in the paging links', async () => {
    const oldest = await (await fragment(paged.id, 'product=SKU-1&sort=oldest')).text();
    expect(names(oldest)[0]).toBe('Writer 0');
    const low = await (await fragment(paged.id, 'product=P-1&sort=lowest&stars=1,2')).text();
    // Ratings 1 (writers 20, 15, 10, 5, 0) then 2 (21, 16, 11, 6, 1): newest first within each.
    expect(names(low)).toEqual([
      'Writer 20',
      'Writer 15',
      'Writer 10',
      'Writer 5',
      'Writer 0',
      'Writer 21',
      'Writer 16',
      'Writer 11',
      'Writer 6',
      'Writer 1',
    ]);
    expect(low).toContain('data-count="23"');
    expect(low).toContain('10 reviews match');
    expect(low).toContain('<option value="lowest" selected>');
    // The GET form's own shape (stars repeated) reads the same.
    const repeated = await (await fragment(paged.id, 'product=P-1&sort=lowest&stars=1&stars=2')).text();
    expect(names(repeated)).toEqual(names(low));
    const five = await (await fragment(paged.id, 'product=P-1&stars=5')).text();
    expect(names(five)).toEqual(['Writer 19', 'Writer 14', 'Writer 9', 'Writer 4']);
    const none = await (await fragment(paged.id, 'product=P-1&photos=1')).text();
    expect(names(none)).toEqual([]);
    expect(none).toContain('No reviews match this choice.');
    const twoPages = await (await fragment(paged.id, 'product=P-1&stars=1,2,3')).text();
    expect(twoPages).toContain('data-query="page=2&amp;sort=newest&amp;stars=1,2,3"');
  });

  it('answers an empty state for a product without reviews, and for an unknown one', async () => {
    for (const q of ['product=nothing&lang=de', 'product=nothing&lang=de&theme=dark']) {
      const res = await fragment(paged.id, q);
      expect(res.status).toBe(200);
      const html = await res.text();
      expect(html).toMatch(/<section class="pr pr--empty" data-count="0"/);
      expect(html).toContain('Zu diesem Produkt gibt es noch keine Bewertungen.');
    }
  });

  it('shows the labels, the reply, the helpful count, and escapes everything', async () => {
    const s = await t.createShop({ name: 'Shop <b>' });
    const r = await review(s.id, {
      name: '<img src=x onerror=alert(1)>',
      comment: 'Shop text',
      experience_date: '2026-03',
      incentivised: true,
      products: [product({ content: '</section><script>alert(1)</script>' })],
    });
    await t.services.reviews.update(r.id, {
      reply: { text: 'Thanks <3', date: new Date(), notify: false, revision: 1, notified: null },
    });
    await t.services.productReviews.insert([imported(s.id)]);
    const html = await (await fragment(s.id, 'product=P-1&lang=en&theme=dark')).text();
    expect(html).not.toContain('<script');
    expect(html).not.toContain('<img src=x');
    expect(html).toContain('&lt;/section>&lt;script>alert(1)&lt;/script>');
    expect(html).toContain('data-theme="dark"');
    expect(html).toContain('Experience: March 2026');
    expect(html).toContain('Verified order');
    expect(html).toContain('Incentivised');
    expect(html).toContain('Imported from Judge.me');
    expect(html).toContain('Reply from Shop &lt;b>');
    expect(html).toContain('Thanks &lt;3');
    expect(html).toContain(`<button type="button" data-helpful="${r.id}" aria-pressed="false">Helpful (0)</button>`);

    // The block's script sends the vote from the shop's page and reads the answer: it is CORS-readable.
    const vote = await t.fetch(`/reviews/${r.id}/helpful`, {
      method: 'POST',
      headers: {
        origin: 'https://shop.example',
        accept: 'application/json',
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'lang=en',
    });
    expect(vote.headers.get('access-control-allow-origin')).toBe('*');
    expect(await vote.json()).toMatchObject({ counted: true, helpful: 1 });
    expect(await (await fragment(s.id, 'product=P-1&lang=en')).text()).toContain('Helpful (1)');
  });

  it('refuses bad input with a clear error, never a 500', async () => {
    expect((await fragment(paged.id, 'lang=en')).status).toBe(400);
    expect((await fragment(paged.id, 'product=P-1&lang=xx')).status).toBe(400);
    expect((await fragment(paged.id, 'product=P-1&page=0')).status).toBe(400);
    expect((await fragment(99_999_999, 'product=P-1')).status).toBe(404);
  });

  it('answers 304 to a repeated request with its ETag', async () => {
    const res = await fragment(paged.id, 'product=P-1');
    const etag = res.headers.get('etag');
    expect(etag).toBeTruthy();
    const path = `/webshops/${paged.id}/products/reviews.html?product=P-1`;
    expect(await statusOf(path, { 'if-none-match': etag! })).toBe(304);
    expect(await statusOf(path, { 'if-none-match': '"other"' })).toBe(200);
  });
});

describe('GET /webshops/{id}/products/jsonld', () => {
  it('answers the Product with its figures and recent reviews, as the fixture says', async () => {
    const s = await t.createShop();
    await review(s.id, {
      name: 'Ann',
      created: new Date('2026-02-01T10:00:00Z'),
      products: [product({ rating: 5, content: 'Great kettle' })],
    });
    await review(s.id, {
      name: '',
      created: new Date('2026-02-03T10:00:00Z'),
      products: [product({ rating: 4, content: '' })],
    });
    const res = await jsonld(s.id, 'product=P-1');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/ld+json');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(await res.json()).toEqual({
      '@context': 'https://schema.org',
      '@type': 'Product',
      '@id': 'https://shop.example/kettle',
      name: 'Blue Kettle',
      url: 'https://shop.example/kettle',
      image: 'https://shop.example/kettle.jpg',
      sku: 'SKU-1',
      gtin: '4006381333931',
      mpn: 'KT-100',
      brand: { '@type': 'Brand', name: 'Acme' },
      aggregateRating: { '@type': 'AggregateRating', ratingValue: 4.5, reviewCount: 2, bestRating: 5, worstRating: 1 },
      review: [
        {
          '@type': 'Review',
          author: { '@type': 'Person', name: 'Anonymous' },
          datePublished: '2026-02-03',
          reviewRating: { '@type': 'Rating', ratingValue: 4, bestRating: 5, worstRating: 1 },
        },
        {
          '@type': 'Review',
          author: { '@type': 'Person', name: 'Ann' },
          datePublished: '2026-02-01',
          reviewBody: 'Great kettle',
          reviewRating: { '@type': 'Rating', ratingValue: 5, bestRating: 5, worstRating: 1 },
        },
      ],
    });
    const part = await (await jsonld(s.id, 'product=P-1&part=rating')).json();
    expect(Object.keys(part)).toEqual(['aggregateRating', 'review']);
    expect(part.aggregateRating.reviewCount).toBe(2);
  });

  it('keeps `</script>` and the line separators text inside a script element', async () => {
    const s = await t.createShop();
    await review(s.id, {
      name: 'Eve & Co',
      products: [product({ content: 'Nice</script><script>alert(1)</script>\u2028line\u2029end' })],
    });
    const text = await (await jsonld(s.id, 'product=P-1')).text();
    expect(text).not.toMatch(/[<>&\u2028\u2029]/);
    expect(text).toContain(
      'Nice\\u003c/script\\u003e\\u003cscript\\u003ealert(1)\\u003c/script\\u003e\\u2028line\\u2029end',
    );
    expect(text).toContain('Eve \\u0026 Co');
    expect(JSON.parse(text).review[0].reviewBody).toBe('Nice</script><script>alert(1)</script>\u2028line\u2029end');
  });

  it('lets only http(s) URLs pass', async () => {
    const s = await t.createShop();
    await review(s.id, {
      products: [product({ url: 'javascript:alert(1)', image_url: 'data:image/png;base64,AAAA' })],
    });
    const body = await (await jsonld(s.id, 'product=P-1')).json();
    expect(body['@id']).toBeUndefined();
    expect(body.url).toBeUndefined();
    expect(body.image).toBeUndefined();
  });

  it('answers 404 without reviews, 400 without product=, and 304 with its ETag', async () => {
    expect((await jsonld(shop.id, 'product=P-1')).status).toBe(404);
    expect((await jsonld(shop.id, '')).status).toBe(400);
    const s = await t.createShop();
    await review(s.id, { products: [product()] });
    const res = await jsonld(s.id, 'product=P-1');
    const etag = res.headers.get('etag')!;
    expect(await statusOf(`/webshops/${s.id}/products/jsonld?product=P-1`, { 'if-none-match': etag })).toBe(304);
  });
});
