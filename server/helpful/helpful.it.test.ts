import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, withAuth, type TestApp } from '../../test/harness.js';
import type { Review } from '../reviews/model.js';
import type { Webshop } from '../webshops/store.js';
import { returnPath } from './rules.js';

let t: TestApp;
let shop: Webshop;
let review: Review;
beforeAll(async () => {
  // Behind a proxy of ours: X-Forwarded-For names the client, so the test can vote from several addresses.
  t = await startTestApp({ TRUST_PROXY: '1' });
  shop = await t.createShop();
  review = await t.services.reviews.create(shop.id, {
    name: 'Ann',
    email: 'ann@example.com',
    rating: 5,
    language: 'en',
  });
});
afterAll(() => t.close());

const vote = (
  reviewId: number,
  from: string,
  init: { json?: boolean; back?: string; headers?: Record<string, string> } = {},
) =>
  t.fetch(`/reviews/${reviewId}/helpful`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-forwarded-for': from,
      ...init.headers,
      ...(init.json ? { accept: 'application/json' } : { accept: 'text/html' }),
    },
    body: new URLSearchParams({ return: init.back ?? `/webshops/${shop.id}?page=1`, lang: 'en' }),
  });

const helpfulOf = async (id: number) =>
  (await (await t.fetch(withAuth('/api/1.0/ratings.json', shop))).json()).ratings.find((r: Review) => r.id === id)
    .helpful;

describe('POST /reviews/{id}/helpful', () => {
  it('counts one vote per address, and returns the form to the shop page it came from', async () => {
    const first = await vote(review.id, '203.0.113.5');
    expect(first.status).toBe(303);
    expect(first.headers.get('location')).toBe(`/webshops/${shop.id}?page=1#review-${review.id}`);
    expect(await helpfulOf(review.id)).toBe(1);

    // The same address again (and another address in its IPv6 /64 counts as the same client).
    expect((await vote(review.id, '203.0.113.5')).status).toBe(303);
    const again = await (await vote(review.id, '203.0.113.5', { json: true })).json();
    expect(again).toEqual({ counted: false, helpful: 1, text: '1 person found this helpful' });
    expect(await helpfulOf(review.id)).toBe(1);

    const other = await (await vote(review.id, '198.51.100.7', { json: true })).json();
    expect(other).toEqual({ counted: true, helpful: 2, text: '2 people found this helpful' });
    await vote(review.id, '2001:db8:1:2::1');
    await vote(review.id, '2001:db8:1:2::2');
    expect(await helpfulOf(review.id)).toBe(3);
  });

  it("answers the product block's JSON vote from a shop's page readably cross-site, without a cookie", async () => {
    const other = await t.services.reviews.create(shop.id, {
      name: 'Bo',
      email: 'bo@example.com',
      rating: 4,
      language: 'en',
    });
    const res = await t.fetch(`/reviews/${other.id}/helpful`, {
      method: 'POST',
      headers: { accept: 'application/json', origin: 'https://shop.example', 'x-forwarded-for': '192.0.2.44' },
      body: new URLSearchParams({ lang: 'nl' }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('set-cookie')).toBeNull();
    expect(((await res.json()) as { counted: boolean }).counted).toBe(true);
  });

  it('shows the count on the shop page, with a form that works without JavaScript', async () => {
    const html = await (await t.fetch(`/webshops/${shop.id}`)).text();
    expect(html).toContain(`<form method="post" action="/reviews/${review.id}/helpful" class="helpful"`);
    expect(html).toContain('3 people found this helpful');
  });

  it('counts no vote for a review that is not published, and never redirects off the shop page', async () => {
    const waiting = await t.services.reviews.create(shop.id, {
      name: 'Bo',
      email: 'bo@example.com',
      rating: 1,
      language: 'en',
      quarantine: true,
    });
    expect((await vote(waiting.id, '203.0.113.9')).status).toBe(404);
    expect((await vote(99_999_999, '203.0.113.9')).status).toBe(404);
    const evil = await vote(review.id, '203.0.113.10', { back: 'https://evil.example/' });
    expect(evil.headers.get('location')).toBe(`/webshops/${shop.id}#review-${review.id}`);
    expect(returnPath(shop.id, `/webshops/${shop.id}2`)).toBe(`/webshops/${shop.id}`);
    expect(returnPath(shop.id, `/webshops/${shop.id}?sort=helpful#x`)).toBe(`/webshops/${shop.id}?sort=helpful`);
  });
});

describe('votes sent from other pages (CSRF)', () => {
  it('refuses a vote that a page of another origin makes a browser send, and counts the service’s own', async () => {
    const target = await t.services.reviews.create(shop.id, {
      name: 'Cy',
      email: 'cy@example.com',
      rating: 4,
      language: 'en',
    });
    const own = new URL(t.services.config.baseUrl).origin;
    const forged: Record<string, string>[] = [
      { origin: 'https://evil.example' },
      { origin: 'null' },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
    ];
    for (const [i, headers] of forged.entries()) {
      const answer = await vote(target.id, `192.0.2.${i + 1}`, { headers });
      expect(answer.status).toBe(403);
      expect(answer.headers.get('location')).toBeNull();
    }
    expect(await helpfulOf(target.id)).toBe(0);
    const ok = await vote(target.id, '192.0.2.50', { headers: { origin: own, 'sec-fetch-site': 'same-origin' } });
    expect(ok.status).toBe(303);
    expect(await helpfulOf(target.id)).toBe(1);
  });
});

describe('sorting and filtering the shop page', () => {
  it('takes the choice from the address, keeps it in the paging links, and offers a reset', async () => {
    const other = await t.createShop();
    for (let i = 0; i < 12; i++) {
      await t.services.reviews.create(other.id, {
        name: `Writer ${i}`,
        email: `w${i}@example.com`,
        rating: (i % 5) + 1,
        language: 'en',
        created: new Date(Date.UTC(2025, 0, i + 1)),
      });
    }
    const page = async (query: string) => (await t.fetch(`/webshops/${other.id}${query}`)).text();
    const writers = (html: string) => [...html.matchAll(/<h3 id="review-\d+">([^<]+)</g)].map((m) => m[1]);

    expect(writers(await page(''))[0]).toBe('Writer 11');
    expect(writers(await page('?sort=oldest'))[0]).toBe('Writer 0');
    const low = await page('?sort=lowest&stars=1,2');
    // Ratings 1 (writers 0, 5, 10) then 2 (1, 6, 11), newest first within each.
    expect(writers(low)).toEqual(['Writer 10', 'Writer 5', 'Writer 0', 'Writer 11', 'Writer 6', 'Writer 1']);
    expect(low).toContain('6 reviews match');
    expect(low).toContain(`<option value="lowest" selected>`);
    expect(low).toContain(`<a href="/webshops/${other.id}">Show all reviews, newest first</a>`);
    // The GET form's own shape (stars repeated) reads the same; paging links carry the choice.
    const all = await page('?sort=highest&stars=5&stars=4&stars=3&stars=2&stars=1');
    expect(writers(all)[0]).toMatch(/Writer (4|9)/);
    const paged = await page('?sort=helpful');
    expect(paged).toContain(`href="/webshops/${other.id}?sort=helpful&amp;page=2"`);
    expect(writers(await page('?photos=1'))).toEqual([]);
    expect(await page('?photos=1')).toContain('No reviews match this choice.');
  });
});
