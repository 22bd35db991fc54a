import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, withAuth, type TestApp } from '../../test/harness.js';
import type { NewReview, Review } from '../reviews/model.js';
import type { Webshop } from '../webshops/store.js';

let t: TestApp;
let shop: Webshop;
const r: Record<string, Review> = {};

const at = (day: number, hour = 12) => new Date(Date.UTC(2024, 0, day, hour, 30, 15));

async function add(shopId: number, input: Partial<NewReview> & { created: Date }): Promise<Review> {
  return t.services.reviews.create(shopId, {
    name: 'Klant',
    email: 'klant@example.com',
    rating: 4,
    language: 'nl',
    ...input,
  });
}

async function json(path: string) {
  const res = await t.fetch(path);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
  return res.json();
}

const ratings = (extra: Record<string, string> = {}) => json(withAuth('/api/1.0/ratings.json', shop, extra));
const summary = () => json(withAuth('/api/1.0/ratings_summary.json', shop));
const names = (body: { ratings: { name: string }[] }) => body.ratings.map((x) => x.name);

beforeAll(async () => {
  t = await startTestApp();
  shop = await t.createShop({
    languages: [
      { iso: 'nl', name: 'Nederlands', url: 'https://shop.example/', all: false, main: true },
      { iso: 'en', name: 'English', url: 'https://shop.example/en/', all: false, main: false },
    ],
  });
  r.oldest = await add(shop.id, {
    name: 'Oldest',
    rating: 5,
    ratings: { shippingtime: 5, customerservice: 4, pricequality: 0, aftersale: 0 },
    comment: 'Prima',
    country: 'NL',
    created: at(1, 7),
  });
  r.english = await add(shop.id, {
    name: 'English',
    language: 'en',
    rating: 3,
    ratings: { shippingtime: 0, customerservice: 2, pricequality: 3, aftersale: 0 },
    created: at(2),
  });
  r.quarantined = await add(shop.id, { name: 'Quarantined', rating: 1, quarantine: true, created: at(3) });
  r.spam = await add(shop.id, { name: 'Spam', rating: 1, is_spam: true, created: at(4) });
  r.deleted = await add(shop.id, { name: 'Deleted', rating: 1, created: at(5) });
  await t.services.reviews.softDelete(r.deleted.id);
  r.newest = await add(shop.id, { name: 'Newest', rating: 4, created: at(6) });
});
afterAll(() => t.close());

describe('GET /api/1.0/ratings.json', () => {
  it('returns the spec fields in the spec formats, newest first, with total', async () => {
    const body = await ratings();
    expect(body).toMatchObject({ status: 'success', message: 'Ratings successfully retrieved!', total: 4 });
    expect(names(body)).toEqual(['Newest', 'Quarantined', 'English', 'Oldest']);
    expect(body.ratings[3]).toStrictEqual({
      id: r.oldest!.id,
      name: 'Oldest',
      email: 'klant@example.com',
      rating: 5,
      ratings: { shippingtime: 5, customerservice: 4, pricequality: 0, aftersale: 0 },
      comment: 'Prima',
      date: '2024-01-01',
      country: 'NL',
      created: '2024-01-01 07:30:15',
      read: false,
      quarantine: false,
      reply: null,
      reply_date: null,
      // Reviews written straight to the store are imports unless they say otherwise.
      origin: 'imported',
      incentivised: false,
      imported_from: null,
      original_date: null,
      // Issue 21: the date of the experience (an import without one: its own date).
      experience_date: '2024-01-01',
      // Issue 20: "Helpful" votes, and the shown photos of a published review (none here).
      helpful: 0,
      photos: [],
    });
    expect(body.ratings[2]).toMatchObject({ comment: null, country: '' });
  });

  it('lists quarantined reviews flagged, never deleted or spam ones', async () => {
    const body = await ratings();
    expect(body.ratings.find((x: { name: string }) => x.name === 'Quarantined').quarantine).toBe(true);
    expect(names(body)).not.toContain('Spam');
    expect(names(body)).not.toContain('Deleted');
  });

  it('pages with offset and limit; total counts every reachable rating', async () => {
    expect(names(await ratings({ limit: '2' }))).toEqual(['Newest', 'Quarantined']);
    const page = await ratings({ offset: '2', limit: '2' });
    expect(names(page)).toEqual(['English', 'Oldest']);
    expect(page.total).toBe(4);
    const past = await ratings({ offset: '10' });
    expect(past).toMatchObject({ status: 'success', ratings: [], total: 4 });
  });

  it('clamps offset and limit into their ranges and accepts padded numbers', async () => {
    expect(names(await ratings({ limit: '0' }))).toEqual(['Newest']);
    expect(names(await ratings({ offset: '-3', limit: ' 01 ' }))).toEqual(['Newest']);
    expect(names(await ratings({ offset: '', limit: '' }))).toHaveLength(4);
  });

  it('defaults limit to 10 and caps it at 100', async () => {
    const big = await t.createShop();
    for (let i = 0; i < 105; i++) {
      await add(big.id, { name: `R${i}`, created: new Date(Date.UTC(2023, 0, 1) + i * 60_000) });
    }
    const get = (extra: Record<string, string> = {}) => json(withAuth('/api/1.0/ratings.json', big, extra));
    const first = await get();
    expect(first.ratings).toHaveLength(10);
    expect(first.total).toBe(105);
    expect(first.ratings[0].name).toBe('R104');
    expect((await get({ limit: '500' })).ratings).toHaveLength(100);
    const last = await get({ limit: '100', offset: '100' });
    expect(last.ratings.map((x: { name: string }) => x.name)).toEqual(['R4', 'R3', 'R2', 'R1', 'R0']);
  });

  it.each([
    ['offset', 'abc'],
    ['limit', '1.5'],
  ])('answers an error naming %s for a non-number', async (param, value) => {
    expect(await ratings({ [param]: value })).toEqual({
      status: 'error',
      message: expect.stringContaining(`parameter ${param}`),
      ratings: [],
      total: 0,
    });
  });

  it.each(['nl', 'NL', 'nld', 'dut', 'nl_NL', 'nl-BE', ' nl ', 'be'])('filters by language %j', async (language) => {
    const body = await ratings({ language });
    expect(names(body)).toEqual(['Newest', 'Quarantined', 'Oldest']);
    expect(body.total).toBe(3);
  });

  it.each(['en', 'eng', 'en_GB', 'en-US', 'gb'])('filters English with %j', async (language) => {
    expect(names(await ratings({ language }))).toEqual(['English']);
  });

  it('returns no ratings for a language it cannot map, and all for an empty one', async () => {
    expect(await ratings({ language: 'xx' })).toMatchObject({ status: 'success', ratings: [], total: 0 });
    expect((await ratings({ language: '' })).total).toBe(4);
  });

  it('refuses a language given twice, and treats bracket keys as unknown parameters', async () => {
    const twice = await json(`${withAuth('/api/1.0/ratings.json', shop)}&language=nl&language=en`);
    expect(twice).toEqual({ status: 'error', message: expect.stringContaining('language'), ratings: [], total: 0 });
    const bracket = await json(`${withAuth('/api/1.0/ratings.json', shop)}&language[$ne]=nl`);
    expect(bracket.total).toBe(4);
  });
});

describe('GET /api/1.0/ratings_summary.json', () => {
  it('summarises published reviews only, on the documented scales', async () => {
    expect(await summary()).toEqual({
      status: 'success',
      message: 'Ratings summary successfully retrieved!',
      // Oldest (5), English (3), Newest (4): quarantined, spam and deleted ones do not count.
      data: {
        amount: 3,
        rating_average: 8,
        // A sub-score of 0 is "not given": shippingtime is 5 (only Oldest gave one), not 5/3.
        ratings_average: { shippingtime: 5, customerservice: 3, pricequality: 3, aftersale: 0 },
      },
    });
  });

  it('answers zeros, not nulls, for a shop without reviews', async () => {
    const empty = await t.createShop();
    expect((await json(withAuth('/api/1.0/ratings_summary.json', empty))).data).toEqual({
      amount: 0,
      rating_average: 0,
      ratings_average: { shippingtime: 0, customerservice: 0, pricequality: 0, aftersale: 0 },
    });
  });
});

describe('moderation is visible at once (cache invalidation)', () => {
  it('reflects quarantine, release, spam and deletion in both endpoints immediately', async () => {
    const own = await t.createShop();
    const get = (path: string) => json(withAuth(path, own));
    const a = await add(own.id, { name: 'A', rating: 5, created: at(1) });
    const b = await add(own.id, { name: 'B', rating: 3, created: at(2) });
    // Warm both caches.
    expect((await get('/api/1.0/ratings_summary.json')).data).toMatchObject({ amount: 2, rating_average: 8 });
    expect((await get('/api/1.0/ratings.json')).total).toBe(2);

    const moderate = (id: number, body: unknown) =>
      t.admin(`/admin/api/reviews/${id}`, { method: 'PATCH', json: body }).then((res) => expect(res.status).toBe(200));

    await moderate(a.id, { quarantine: true });
    expect((await get('/api/1.0/ratings_summary.json')).data).toMatchObject({ amount: 1, rating_average: 6 });
    const list = await get('/api/1.0/ratings.json');
    expect(list.ratings.map((x: { name: string; quarantine: boolean }) => [x.name, x.quarantine])).toEqual([
      ['B', false],
      ['A', true],
    ]);

    await moderate(a.id, { quarantine: false, rating: 4 });
    expect((await get('/api/1.0/ratings_summary.json')).data).toMatchObject({ amount: 2, rating_average: 7 });

    await moderate(b.id, { is_spam: true });
    expect((await get('/api/1.0/ratings.json')).ratings.map((x: { name: string }) => x.name)).toEqual(['A']);

    expect((await t.admin(`/admin/api/reviews/${a.id}`, { method: 'DELETE' })).status).toBe(204);
    expect(await get('/api/1.0/ratings.json')).toMatchObject({ ratings: [], total: 0 });
    expect((await get('/api/1.0/ratings_summary.json')).data.amount).toBe(0);
  });

  it('shows a new review at once', async () => {
    const own = await t.createShop();
    expect((await json(withAuth('/api/1.0/ratings.json', own))).total).toBe(0);
    await add(own.id, { name: 'New', created: at(1) });
    expect(names(await json(withAuth('/api/1.0/ratings.json', own)))).toEqual(['New']);
  });
});

describe('credentials', () => {
  it.each([
    ['no id', (s: Webshop) => `code=${s.code}`],
    ['no code', (s: Webshop) => `id=${s.id}`],
    ['an empty code', (s: Webshop) => `id=${s.id}&code=`],
  ])('answers the missing-variables message with %s', async (_name, query) => {
    expect(await json(`/api/1.0/ratings.json?${query(shop)}`)).toEqual({
      status: 'error',
      message: 'Not all obligated variables are set.',
      ratings: [],
      total: 0,
    });
    expect(await json(`/api/1.0/ratings_summary.json?${query(shop)}`)).toEqual({
      status: 'error',
      message: 'Not all obligated variables are set.',
      data: null,
    });
  });

  it('answers the wrong-credentials message for a wrong code or another shop’s code', async () => {
    const other = await t.createShop();
    for (const query of [`id=${shop.id}&code=${'0'.repeat(32)}`, `id=${shop.id}&code=${other.code}`]) {
      expect(await json(`/api/1.0/ratings.json?${query}`)).toEqual({
        status: 'error',
        message: 'Incorrect authentication credentials.',
        ratings: [],
        total: 0,
      });
      expect(await json(`/api/1.0/ratings_summary.json?${query}`)).toEqual({
        status: 'error',
        message: 'Incorrect authentication credentials.',
        data: null,
      });
    }
  });
});
