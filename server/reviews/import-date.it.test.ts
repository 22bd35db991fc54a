// Issue 9 point 11: the operator import takes the Rating object as ratings.json exports it, `date` included.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness.js';
import type { Webshop } from '../webshops/store.js';

let t: TestApp;
let shop: Webshop;
beforeAll(async () => {
  t = await startTestApp();
  shop = await t.createShop({ name: 'Datum BV' });
});
afterAll(() => t.close());

const importReview = (json: Record<string, unknown>) =>
  t.admin(`/admin/api/webshops/${shop.id}/reviews`, { method: 'POST', json });

async function createdOf(json: Record<string, unknown>): Promise<string> {
  const res = await importReview(json);
  expect(res.status).toBe(201);
  const { id } = await res.json();
  return (await (await t.admin(`/admin/api/reviews/${id}`)).json()).created;
}

describe('POST /admin/api/webshops/:id/reviews with the Rating field date', () => {
  it('accepts the Rating fields of the spec as ratings.json exports them, date and created together', async () => {
    await createdOf({
      name: 'Eva',
      rating: 4,
      ratings: { shippingtime: 4 },
      comment: 'Snel',
      created: '2024-05-06 10:11:12',
    });
    const exported = await (await t.fetch(`/api/1.0/ratings.json?id=${shop.id}&code=${shop.code}`)).json();
    const { name, email, rating, ratings, comment, date, country, created, read, quarantine } = exported.ratings[0];
    expect(date).toBe('2024-05-06');
    const again = { name, email, rating, ratings, comment, date, country, created, read, quarantine };
    expect(await createdOf(again)).toBe('2024-05-06T10:11:12.000Z');
  });

  it("takes date alone as the start of that day (UTC), which is also the review's original date", async () => {
    expect(await createdOf({ rating: 5, date: '2023-12-31' })).toBe('2023-12-31T00:00:00.000Z');
    const exported = await (await t.fetch(`/api/1.0/ratings.json?id=${shop.id}&code=${shop.code}`)).json();
    const imported = exported.ratings.find((r: { date: string }) => r.date === '2023-12-31');
    expect(imported).toMatchObject({ origin: 'imported', original_date: '2023-12-31T00:00:00.000Z' });
  });

  it('refuses a date that disagrees with created, saying so, and stores nothing', async () => {
    const before = await t.db.collection('reviews').countDocuments({ shopId: shop.id });
    const res = await importReview({ rating: 4, date: '2024-05-07', created: '2024-05-06 23:59:59' });
    expect(res.status).toBe(422);
    const body = await res.json();
    expect(body.error.code).toBe('validation_failed');
    expect(body.error.message).toMatch(/^date: 2024-05-07 disagrees with created, which falls on 2024-05-06/);
    expect(await t.db.collection('reviews').countDocuments({ shopId: shop.id })).toBe(before);
  });

  it('compares in UTC: created with an offset on the same UTC day agrees', async () => {
    expect(await createdOf({ rating: 3, date: '2024-05-05', created: '2024-05-06T00:30:00+02:00' })).toBe(
      '2024-05-05T22:30:00.000Z',
    );
  });

  it.each([
    ['a day that does not exist', '2024-02-30', /^date: a date that exists/],
    ['another format', '06-05-2024', /^date: a date such as/],
    ['a number', 20240506, /^date:/],
    ['a future day', '2999-01-01', /^date: must not be in the future/],
  ])('refuses %s with a 422 naming date', async (_name, date, pattern) => {
    const res = await importReview({ rating: 4, date });
    expect(res.status).toBe(422);
    expect((await res.json()).error.message).toMatch(pattern);
  });
});
