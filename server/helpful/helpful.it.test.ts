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

const vote = (reviewId: number, from: string, init: { json?: boolean; back?: string } = {}) =>
  t.fetch(`/reviews/${reviewId}/helpful`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-forwarded-for': from,
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
