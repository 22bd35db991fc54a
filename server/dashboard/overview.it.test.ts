import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, withAuth, type TestApp } from '../../test/harness.js';
import { signedInAgent } from '../accounts/test-session.js';
import type { Role } from '../accounts/roles.js';
import type { NewReview } from '../reviews/model.js';
import type { Webshop } from '../webshops/store.js';
import { lastTwelveMonths } from './review-view.js';

let t: TestApp;
let shop: Webshop;
let emptyShop: Webshop;
let otherShop: Webshop;
// Mid-month, so that "n months ago" stays inside its calendar month.
const NOW = new Date('2026-06-15T12:00:00Z');
const monthsAgo = (n: number, day = 10) => new Date(Date.UTC(2026, 5 - n, day, 9));

async function overview(s: Webshop, as: Webshop = s, role: Role = 'support'): Promise<Response> {
  const { headers } = await signedInAgent(t, { email: `${role}-${as.id}@merchant.example`, shopId: as.id, role });
  return t.fetch(`/dashboard/api/shops/${s.id}/overview`, { headers });
}

const write = (s: Webshop, review: Partial<NewReview> & Pick<NewReview, 'rating'>) =>
  t.services.reviews.create(s.id, { name: 'Writer', email: 'w@example.com', language: 'en', ...review });

beforeAll(async () => {
  t = await startTestApp({}, { now: () => NOW });
  shop = await t.createShop({ name: 'Overview Shop' });
  emptyShop = await t.createShop({ name: 'New Shop' });
  otherShop = await t.createShop({ name: 'Other' });
  const noSub = { shippingtime: 0, customerservice: 0, pricequality: 0, aftersale: 0 };
  // Published: 5 (this month), 4 and 2 (two months ago), 3 (a year and a half ago, outside the chart).
  await write(shop, { rating: 5, created: monthsAgo(0), ratings: { ...noSub, shippingtime: 5, pricequality: 4 } });
  const answered = await write(shop, { rating: 4, created: monthsAgo(2), ratings: { ...noSub, shippingtime: 3 } });
  await write(shop, { rating: 2, created: monthsAgo(2, 20) });
  await write(shop, { rating: 3, created: monthsAgo(18) });
  // Not published: left out of every figure.
  await write(shop, { rating: 1, created: monthsAgo(0), quarantine: true });
  const deleted = await write(shop, { rating: 1, created: monthsAgo(1) });
  await t.services.reviews.softDelete(deleted.id);
  await t.services.reviews.update(answered.id, {
    reply: { text: 'Thanks', date: NOW, notify: false, revision: 1, notified: null },
  });
  await write(otherShop, { rating: 1, created: monthsAgo(0) });
});
afterAll(() => t.close());

describe('GET /dashboard/api/shops/:shopId/overview', () => {
  it('gives score and count as ratings_summary.json does, the last 12 months, distribution, sub-scores and answered share', async () => {
    const res = await overview(shop);
    expect(res.status).toBe(200);
    const body = await res.json();
    const summary = await (await t.fetch(withAuth('/api/1.0/ratings_summary.json', shop))).json();
    expect(body.score).toBe(summary.data.rating_average);
    expect(body).toMatchObject({
      score: 7, // 2 × mean(5, 4, 2, 3)
      count: 4,
      distribution: { 1: 0, 2: 1, 3: 1, 4: 1, 5: 1 },
      sub_scores: { shippingtime: 4, pricequality: 4, customerservice: null, aftersale: null },
      answered_share: 0.25,
    });
    expect(body.months).toHaveLength(12);
    expect(body.months.map((m: { month: string }) => m.month)).toEqual(lastTwelveMonths(NOW));
    expect(body.months[0].month).toBe('2025-07');
    expect(body.months[11]).toEqual({ month: '2026-06', score: 10, count: 1 });
    expect(body.months[9]).toEqual({ month: '2026-04', score: 6, count: 2 });
    expect(body.months[10]).toEqual({ month: '2026-05', score: null, count: 0 });
  });

  it('answers a shop without reviews with no score', async () => {
    const body = await (await overview(emptyShop)).json();
    expect(body).toMatchObject({
      score: null,
      count: 0,
      distribution: { 1: 0, 2: 0, 3: 0, 4: 0, 5: 0 },
      answered_share: 0,
    });
    expect(body.sub_scores).toEqual({ shippingtime: null, customerservice: null, pricequality: null, aftersale: null });
    expect(body.months.every((m: { count: number; score: null }) => m.count === 0 && m.score === null)).toBe(true);
  });

  it('follows a new review at once', async () => {
    await write(shop, { rating: 5, created: monthsAgo(0) });
    const body = await (await overview(shop)).json();
    expect(body.count).toBe(5);
    expect(body.months[11]).toEqual({ month: '2026-06', score: 10, count: 2 });
  });

  it('answers 404 to a user of another shop and 401 without a session', async () => {
    const res = await overview(shop, otherShop, 'owner');
    expect(res.status).toBe(404);
    expect((await res.json()).error.code).toBe('not_found');
    expect((await t.fetch(`/dashboard/api/shops/${shop.id}/overview`)).status).toBe(401);
  });
});
