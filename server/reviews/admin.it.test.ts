import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness.js';
import type { Webshop } from '../webshops/store.js';
import { queuedEvents } from '../../test/webhook-events.js';

let t: TestApp;
let shop: Webshop;
beforeAll(async () => {
  t = await startTestApp();
  shop = await t.createShop({
    name: 'Boeken BV',
    languages: [
      { iso: 'de', name: 'Deutsch', url: 'https://shop.example/de/', all: false, main: false },
      { iso: 'nl', name: 'Nederlands', url: 'https://shop.example/', all: false, main: true },
    ],
  });
});
afterAll(() => t.close());

async function importReview(json: Record<string, unknown>, shopId = shop.id) {
  return t.admin(`/admin/api/webshops/${shopId}/reviews`, { method: 'POST', json });
}

async function importOk(json: Record<string, unknown>): Promise<number> {
  const res = await importReview(json);
  expect(res.status).toBe(201);
  const body = await res.json();
  expect(Object.keys(body)).toEqual(['id']);
  expect(Number.isInteger(body.id)).toBe(true);
  return body.id;
}

async function stored(id: number) {
  const res = await t.admin(`/admin/api/reviews/${id}`);
  expect(res.status).toBe(200);
  return res.json();
}

async function topics(reviewId: number): Promise<string[]> {
  return (await queuedEvents(t.db, reviewId)).map((e) => e.topic);
}

const patch = (id: number, json: unknown) => t.admin(`/admin/api/reviews/${id}`, { method: 'PATCH', json });

describe('POST /admin/api/webshops/:id/reviews (import)', () => {
  it('stores every field, mapping the language and both date forms', async () => {
    const id = await importOk({
      name: 'Jan de Vries',
      email: 'Jan@Example.COM',
      rating: 4,
      ratings: { shippingtime: 5, pricequality: 3 },
      comment: 'Snel geleverd',
      country: 'nl',
      read: true,
      language: 'de_DE',
      order: '000123',
      created: '2024-11-03 07:05:09',
      verified: true,
      products: [
        {
          id: 42,
          name: 'Fiets',
          url: 'https://shop.example/fiets',
          sku: 'F-1',
          gtin: '8712345678906',
          rating: 5,
          content: 'Top',
        },
        { id: 'uuid-7', name: 'Bel' },
      ],
    });
    const review = await stored(id);
    expect(review).toMatchObject({
      id,
      shopId: shop.id,
      name: 'Jan de Vries',
      email: 'Jan@example.com',
      rating: 4,
      ratings: { shippingtime: 5, customerservice: 0, pricequality: 3, aftersale: 0 },
      comment: 'Snel geleverd',
      country: 'NL',
      read: true,
      quarantine: false,
      language: 'de',
      order: '000123',
      created: '2024-11-03T07:05:09.000Z',
      // The source platform's claim is kept apart: it proves no order here (issue 11).
      verified: false,
      source_verified: true,
      origin: 'imported',
      incentivised: false,
      imported_from: null,
      original_date: '2024-11-03T07:05:09.000Z',
      source: 'import',
      deleted: false,
      published: true,
    });
    expect(review.products).toEqual([
      {
        external_id: '42',
        name: 'Fiets',
        url: 'https://shop.example/fiets',
        image_url: '',
        sku: 'F-1',
        gtin: '8712345678906',
        mpn: '',
        brand: '',
        rating: 5,
        content: 'Top',
      },
      {
        external_id: 'uuid-7',
        name: 'Bel',
        url: '',
        image_url: '',
        sku: '',
        gtin: '',
        mpn: '',
        brand: '',
        rating: null,
        content: '',
      },
    ]);
  });

  it('falls back to the shop main language and accepts ISO dates with an offset', async () => {
    const id = await importOk({ rating: 3, language: 'klingon', created: '2024-11-03T08:05:09+01:00' });
    expect(await stored(id)).toMatchObject({
      language: 'nl',
      created: '2024-11-03T07:05:09.000Z',
      name: '',
      email: '',
      comment: null,
    });
    const id2 = await importOk({ rating: 3 });
    expect((await stored(id2)).language).toBe('nl');
  });

  it('answers 404 for an unknown shop', async () => {
    const res = await importReview({ rating: 5 }, 987654);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: { code: 'not_found', message: 'No such webshop.' } });
  });

  it.each([
    ['a missing rating', {}, /^rating:/],
    ['a rating of 6', { rating: 6 }, /^rating:/],
    ['a fractional rating', { rating: 4.5 }, /^rating:/],
    ['a sub-score of 6', { rating: 4, ratings: { shippingtime: 6 } }, /^ratings\.shippingtime:/],
    ['an unknown sub-score', { rating: 4, ratings: { speed: 3 } }, /speed/],
    ['a three-letter country', { rating: 4, country: 'NLD' }, /^country:/],
    ['a bad e-mail address', { rating: 4, email: 'not-an-address' }, /^email:/],
    ['an unreadable date', { rating: 4, created: '03-11-2024' }, /^created:/],
    ['a date in the future', { rating: 4, created: '2999-01-01 00:00:00' }, /^created:/],
    ['a product without a name', { rating: 4, products: [{ id: 1 }] }, /^products\.0\.name:/],
    ['a product rating of 0', { rating: 4, products: [{ id: 1, name: 'X', rating: 0 }] }, /^products\.0\.rating:/],
    [
      'a javascript: product URL',
      { rating: 4, products: [{ id: 1, name: 'X', url: 'javascript:alert(1)' }] },
      /^products\.0\.url:/,
    ],
    ['an operator object as a name', { rating: 4, name: { $ne: '' } }, /^name:/],
    ['an unknown field', { rating: 4, stars: 5 }, /stars/],
  ])('refuses %s with a 422 naming the field', async (_name, json, pattern) => {
    const res = await importReview(json);
    expect(res.status).toBe(422);
    const body = await res.json();
    expect(body.error.code).toBe('validation_failed');
    expect(body.error.message).toMatch(pattern);
  });

  it('refuses without the operator token', async () => {
    const res = await t.fetch(`/admin/api/webshops/${shop.id}/reviews`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ rating: 5 }),
    });
    expect(res.status).toBe(401);
  });
});

describe('moderation: PATCH, DELETE and GET /admin/api/reviews/:id', () => {
  it('answers PATCH with the rating as ratings.json shows it plus the moderation flags', async () => {
    const id = await importOk({
      name: 'Eva',
      email: 'eva@example.com',
      rating: 2,
      ratings: { shippingtime: 4, aftersale: 2 },
      created: '2024-05-06 10:11:12',
    });
    const res = await patch(id, {
      rating: 3,
      ratings: { aftersale: 5 },
      is_spam: true,
      comment: '  Beter dan gedacht  ',
      country: 'be',
      name: 'Eva B.',
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      id,
      name: 'Eva B.',
      email: 'eva@example.com',
      rating: 3,
      ratings: { shippingtime: 4, customerservice: 0, pricequality: 0, aftersale: 5 },
      comment: 'Beter dan gedacht',
      date: '2024-05-06',
      country: 'BE',
      created: '2024-05-06 10:11:12',
      read: false,
      quarantine: false,
      reply: null,
      reply_date: null,
      origin: 'imported',
      incentivised: false,
      imported_from: null,
      original_date: '2024-05-06T10:11:12.000Z',
      experience_date: '2024-05-06',
      // Issue 20: as ratings.json (no votes, and photos only while published).
      helpful: 0,
      photos: [],
      is_spam: true,
      valid: true,
      published: false,
    });
  });

  it('records created, updated and deleted events for the review', async () => {
    const id = await importOk({ name: 'Piet', email: 'piet@example.com', rating: 5 });
    expect(await topics(id)).toEqual(['reviews.created']);
    expect((await patch(id, { read: true })).status).toBe(200);
    expect(await topics(id)).toEqual(['reviews.created', 'reviews.updated']);

    const del = await t.admin(`/admin/api/reviews/${id}`, { method: 'DELETE' });
    expect(del.status).toBe(204);
    expect(await del.text()).toBe('');
    expect(await topics(id)).toEqual(['reviews.created', 'reviews.updated', 'reviews.deleted']);
    const events = await queuedEvents(t.db, id);
    expect(events.every((e) => e.shopId === shop.id)).toBe(true);

    // The operator still sees what is left of it; moderation and a second delete find nothing.
    expect(await stored(id)).toMatchObject({ id, deleted: true, published: false, name: '', email: '', comment: null });
    expect((await patch(id, { read: false })).status).toBe(404);
    expect((await t.admin(`/admin/api/reviews/${id}`, { method: 'DELETE' })).status).toBe(404);
    expect(await topics(id)).toHaveLength(3);
  });

  it('announces a quarantined import only when it is released, exactly once', async () => {
    const id = await importOk({ name: 'Kees', email: 'kees@example.com', rating: 1, quarantine: true });
    expect(await topics(id)).toEqual([]);
    await patch(id, { comment: 'Nog in quarantaine' });
    expect(await topics(id)).toEqual([]);

    const released = await patch(id, { quarantine: false });
    expect(await released.json()).toMatchObject({ quarantine: false, published: true });
    expect(await topics(id)).toEqual(['reviews.created']);

    await patch(id, { quarantine: true });
    await patch(id, { quarantine: false });
    expect(await topics(id)).toEqual(['reviews.created', 'reviews.updated', 'reviews.updated']);
  });

  it('records no event when an unpublished review is deleted', async () => {
    const id = await importOk({ rating: 2, quarantine: true });
    expect((await t.admin(`/admin/api/reviews/${id}`, { method: 'DELETE' })).status).toBe(204);
    expect(await topics(id)).toEqual([]);
  });

  it('validates PATCH input', async () => {
    const id = await importOk({ rating: 4 });
    for (const [json, pattern] of [
      [{}, /^body:/],
      [{ rating: 0 }, /^rating:/],
      [{ quarantine: 'no' }, /^quarantine:/],
      [{ email: 'x@example.com' }, /email/],
      [{ ratings: { shippingtime: -1 } }, /^ratings\.shippingtime:/],
    ] as const) {
      const res = await patch(id, json);
      expect(res.status).toBe(422);
      expect((await res.json()).error.message).toMatch(pattern);
    }
    expect(await topics(id)).toEqual(['reviews.created']);
  });

  it('answers 404 for unknown reviews and ids that are not ids', async () => {
    for (const path of ['/admin/api/reviews/9999999', '/admin/api/reviews/abc', '/admin/api/reviews/-1']) {
      expect((await t.admin(path)).status).toBe(404);
      expect((await t.admin(path, { method: 'PATCH', json: { read: true } })).status).toBe(404);
      expect((await t.admin(path, { method: 'DELETE' })).status).toBe(404);
    }
  });

  it('keeps the writer’s secret link tokens out of the operator view', async () => {
    const id = await importOk({ rating: 4 });
    const view = await stored(id);
    expect(Object.keys(view).filter((k) => /token/i.test(k))).toEqual([]);
    expect(view).not.toHaveProperty('_id');
  });
});
