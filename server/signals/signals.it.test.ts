// Issue 21, "Signals: detect, never hide": each signal is raised in the worker after the review is written, as an
// entry of the operator's queue (`source: "signal"`, its name and evidence: review ids and figures), and not raised
// below its threshold; imported reviews raise none but at most one burst; a signal changes nothing about the review
// and is dismissed as a whole.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness.js';
import type { NewReview } from '../reviews/model.js';
import type { Webshop } from '../webshops/store.js';
import { testConfig } from '../config.js';
import { drainImports } from '../imports/service.js';
import { SIGNAL_REVIEW_QUEUE } from './store.js';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({ SCHEDULER_POLL_MS: '200' });
  await t.services.scheduler.start();
});
afterAll(async () => {
  await t.services.scheduler.stop();
  await t.close();
});

interface Listed {
  id: string;
  review_id: number;
  webshop_id: number;
  source: string;
  status: string;
  signal?: { name: string; review_ids: number[]; figures: Record<string, number>; basis?: string };
}

/** The worker has checked every review written so far; then the shop's signals in the open queue. */
async function signalsOf(shopId: number): Promise<Listed[]> {
  for (let i = 0; i < 600 && (await t.db.collection(SIGNAL_REVIEW_QUEUE).countDocuments()) > 0; i++) {
    await new Promise((r) => setTimeout(r, 100));
  }
  expect(await t.db.collection(SIGNAL_REVIEW_QUEUE).countDocuments()).toBe(0);
  const res = await t.admin('/admin/api/reports?status=open&limit=100');
  return ((await res.json()).reports as Listed[]).filter((r) => r.webshop_id === shopId && r.source === 'signal');
}

const write = (shop: Webshop, fields: Partial<NewReview> = {}) =>
  t.services.reviews.create(shop.id, {
    name: 'Piet',
    email: 'piet@example.com',
    rating: 5,
    language: 'en',
    comment: 'Fine',
    source: 'invitation',
    verified: true,
    ...fields,
  });

describe('insider', () => {
  it('is raised for one of the shop’s dashboard users and for the shop’s own domain, not for others', async () => {
    const shop = await t.createShop({ name: 'Insider BV', url: 'https://www.insider.example/' });
    const user = await t.services.users.findOrCreate('owner@elsewhere.example');
    await t.services.users.addMember(user.id, shop.id, 'owner', { kind: 'operator' });

    const byUser = await write(shop, { email: 'Owner@Elsewhere.example' });
    const byDomain = await write(shop, { email: 'staff@shop.insider.example' });
    await write(shop, { email: 'customer@other.example' });
    // A public provider says nothing, even at a shop whose own domain it were.
    const gmailShop = await t.createShop({ name: 'Mail shop', url: 'https://gmail.com/' });
    await write(gmailShop, { email: 'someone@gmail.com' });
    // Imported reviews raise no insider.
    await write(shop, { email: 'owner@elsewhere.example', source: 'import', verified: false });

    const raised = await signalsOf(shop.id);
    expect(raised.map((r) => [r.review_id, r.signal?.name, r.signal?.basis])).toEqual([
      [byUser.id, 'insider', 'dashboard_user'],
      [byDomain.id, 'insider', 'shop_domain'],
    ]);
    expect(raised[0]!.signal).toMatchObject({ review_ids: [byUser.id], figures: {} });
    expect(await signalsOf(gmailShop.id)).toEqual([]);
    // Detect, never hide: the review is published as written.
    expect((await t.services.reviews.get(byUser.id))!.published).toBe(true);
  });
});

describe('burst', () => {
  it('is raised past max(10, 5 × the daily average) in 24 hours, once; not at 10', async () => {
    const shop = await t.createShop({ name: 'Burst BV' });
    const written = [];
    for (let i = 0; i < 10; i++) written.push(await write(shop, { email: `b${i}@example.com` }));
    expect(await signalsOf(shop.id)).toEqual([]);
    const eleventh = await write(shop, { email: 'b10@example.com' });
    await write(shop, { email: 'b11@example.com' });
    const raised = await signalsOf(shop.id);
    expect(raised).toHaveLength(1);
    expect(raised[0]!.signal).toEqual({
      name: 'burst',
      review_ids: [eleventh.id],
      figures: { reviews_24h: 11, limit: 10, daily_average_90d: 0 },
    });
    for (const r of [...written, eleventh]) expect((await t.services.reviews.get(r.id))!.published).toBe(true);

    // Dismissed as a whole; dismiss answers signals only.
    const res = await t.admin(`/admin/api/reports/${raised[0]!.id}/decision`, {
      method: 'POST',
      json: { action: 'dismiss', note: 'a newsletter went out' },
    });
    expect(res.status).toBe(200);
    expect((await res.json()).report.status).toBe('dismissed');
    expect(await signalsOf(shop.id)).toEqual([]);
  });

  it('one import raises at most one burst, and nothing else', async () => {
    const shop = await t.createShop({ name: 'Import BV', url: 'https://import.example/' });
    for (let i = 0; i < 25; i++) {
      const res = await t.admin(`/admin/api/webshops/${shop.id}/reviews`, {
        method: 'POST',
        json: { name: `I${i}`, email: `staff${i}@import.example`, rating: 4, date: '2025-01-01' },
      });
      expect(res.status).toBe(201);
    }
    const raised = await signalsOf(shop.id);
    expect(raised.map((r) => r.signal?.name)).toEqual(['burst']);
  });
});

describe('a bulk import (a file)', () => {
  it('raises at most one burst, and nothing else: not insider, not duplicate_text, however the rows look', async () => {
    const shop = await t.createShop({ name: 'Bulk BV', url: 'https://bulk.example/' });
    // 25 rows in Trustpilot's format: each by an address at the shop's own domain, each with the same 15-word text.
    const text = 'The order arrived late and the box was damaged but the staff replaced it quickly';
    const rows = Array.from(
      { length: 25 },
      (_, i) =>
        `bulk-${i},01/${String(10 + (i % 15)).padStart(2, '0')}/2024 10:00,Staff ${i},staff${i}@bulk.example,Title,${text},4,Organic,ORD-${i},,,en`,
    );
    const csv = [
      'Review Id,Review Created (UTC),Review Username,Review User Email,Review Title,Review Content,Review Stars,Source Of Review,Reference Id,Company Response,Company Reply Date (UTC),Review Language',
      ...rows,
    ].join('\n');
    const form = new FormData();
    form.append('date_order', 'mdy');
    form.append('file', new Blob([csv]), 'trustpilot.csv');
    const res = await t.admin(`/admin/api/webshops/${shop.id}/imports`, { method: 'POST', body: form });
    expect(res.status).toBe(202);
    const { id } = await res.json();
    await drainImports(t.services, 'test-worker');
    // The scheduler's own worker may hold the run: wait for it to be done.
    let done: Record<string, unknown> = {};
    for (let i = 0; i < 600 && done.status !== 'done'; i++) {
      done = await (await t.admin(`/admin/api/webshops/${shop.id}/imports/${id}`)).json();
      if (done.status !== 'done') await new Promise((r) => setTimeout(r, 100));
    }
    expect(done).toMatchObject({ status: 'done', imported: 25 });
    const raised = await signalsOf(shop.id);
    // Nothing for the rows' addresses or texts; a burst at most (a file's rows are written in bulk, without the
    // per-review followers, so today it raises none: the issue allows one).
    expect(raised.length).toBeLessThanOrEqual(1);
    expect(raised.every((r) => r.signal?.name === 'burst')).toBe(true);
  });
});

describe('switches', () => {
  it('SIGNALS names the signals that are on; none turns them all off; anything else stops start-up', () => {
    expect(testConfig().signals).toEqual(['insider', 'burst', 'duplicate_text', 'shared_network']);
    expect(testConfig({ SIGNALS: 'burst' }).signals).toEqual(['burst']);
    expect(testConfig({ SIGNALS: 'none' }).signals).toEqual([]);
    expect(() => testConfig({ SIGNALS: 'insider,typo' })).toThrow(/SIGNALS/);
  });
});
