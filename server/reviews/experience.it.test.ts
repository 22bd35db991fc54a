// Issue 21, "The date of the experience": each path that writes a review sets `experience_date` — the order's date
// when the service saw the order, the month the writer names on the experience form, the date an import gives —
// and ratings.json, the shop page and the widget's list show it. The clock moves between the order and the review,
// so the order's date and the review's date differ.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, withAuth, type TestApp } from '../../test/harness.js';
import { orderSignature } from '../consents/signature.js';
import { drainImports } from '../imports/service.js';
import type { Invitation } from '../invitations/store.js';
import type { Review } from './model.js';
import type { Webshop } from '../webshops/store.js';

let t: TestApp;
let shop: Webshop;
let now = new Date('2026-03-10T12:00:00Z');
let ip = 0;
const freshIp = () => `10.21.${Math.floor(++ip / 250)}.${(ip % 250) + 1}`;

beforeAll(async () => {
  t = await startTestApp({ TRUST_PROXY: 'true' }, { now: () => now });
  shop = await t.createShop({ name: 'Datum BV' });
});
afterAll(() => t.close());

async function post(path: string, body: unknown) {
  const res = await t.fetch(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': freshIp() },
    body: JSON.stringify(body),
  });
  // biome-ignore lint/suspicious/noExplicitAny: the answers' JSON of several shapes, read field by field
  return { status: res.status, json: (await res.json()) as Record<string, any> };
}

const stored = async (filter: Partial<Review>) =>
  (await t.db.collection<Review>('reviews').findOne(filter, { projection: { _id: 0 } }))!;

async function listed(id: number) {
  const body = await (await t.fetch(withAuth('/api/1.0/ratings.json', shop, { limit: '100' }))).json();
  return (body.ratings as { id: number; experience_date: string }[]).find((r) => r.id === id)!;
}

describe('experience_date set by each path', () => {
  it('an invitation’s review: the day the invitation arrived, not the day of the review', async () => {
    now = new Date('2026-03-10T12:00:00Z');
    const res = await t.fetch(withAuth('/api/1.0/invitations.json', shop), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email: 'ann@example.com', order: 'E-1' }).toString(),
    });
    expect((await res.json()).status).toBe('success');
    const invitation = (await t.db.collection<Invitation>('invitations').findOne({ shopId: shop.id, order: 'E-1' }))!;
    now = new Date('2026-04-02T09:00:00Z');
    const written = await t.fetch(`/review/${invitation.token}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ rating: '2', name: 'Ann', comment: 'Late' }).toString(),
    });
    expect(written.status).toBe(200);
    const review = await stored({ shopId: shop.id, order: 'E-1' });
    expect(review.experience_date).toBe('2026-03-10');
    expect(await listed(review.id)).toMatchObject({ date: '2026-04-02', experience_date: '2026-03-10' });
  });

  it('a pop-up review with signed order data: the day the order data arrived', async () => {
    // The review token lasts a day: the review is written late that evening, the day after in UTC+… time zones.
    now = new Date('2026-03-11T23:00:00Z');
    const order = { webshopId: shop.id, orderNumber: 'E-2', email: 'bob@example.com' };
    const chosen = await post(`/embed/${shop.id}/consent`, {
      order,
      signature: orderSignature(order, shop.id, shop.code),
      choice: 'write_now',
      language: 'en',
      textVersion: 'en.1',
    });
    expect(chosen.status).toBe(201);
    now = new Date('2026-03-12T20:00:00Z');
    const written = await post(`/embed/${shop.id}/reviews`, {
      reviewToken: chosen.json.reviewToken,
      rating: 5,
      comment: 'Fine',
      name: 'Bob',
    });
    expect(written.status).toBe(201);
    expect(await listed(written.json.id)).toMatchObject({ date: '2026-03-12', experience_date: '2026-03-11' });
  });

  it('the experience form: the month the writer names; none named (an older embed): the month of writing', async () => {
    now = new Date('2026-04-15T12:00:00Z');
    const named = await post(`/embed/${shop.id}/experiences`, {
      rating: 3,
      name: 'Cas',
      email: 'cas@example.com',
      comment: 'Ok',
      experience_date: '2025-11',
    });
    expect(named.status).toBe(202);
    expect((await stored({ shopId: shop.id, email: 'cas@example.com' })).experience_date).toBe('2025-11');

    const unnamed = await post(`/embed/${shop.id}/experiences`, {
      rating: 3,
      name: 'Dirk',
      email: 'dirk@example.com',
    });
    expect(unnamed.status).toBe(202);
    expect((await stored({ shopId: shop.id, email: 'dirk@example.com' })).experience_date).toBe('2026-04');
  });

  it('the experience form refuses a month to come or one that is not a month, and stores nothing', async () => {
    now = new Date('2026-04-15T12:00:00Z');
    for (const experience_date of ['2026-05', '2026-13', 'March', '1999-12']) {
      const res = await post(`/embed/${shop.id}/experiences`, {
        rating: 3,
        name: 'Eve',
        email: 'eve@example.com',
        experience_date,
      });
      expect(res.status, experience_date).toBe(400);
      expect(JSON.stringify(res.json)).toContain('experience_date: ');
    }
    expect(await t.db.collection('reviews').countDocuments({ email: 'eve@example.com' })).toBe(0);
  });

  it('an import: the order date given, else the original date; a date to come is refused', async () => {
    now = new Date('2026-04-15T12:00:00Z');
    const importReview = (json: Record<string, unknown>) =>
      t.admin(`/admin/api/webshops/${shop.id}/reviews`, { method: 'POST', json });
    const given = await importReview({ name: 'Fay', rating: 4, date: '2025-06-01', experience_date: '2025-05-20' });
    expect(given.status).toBe(201);
    expect((await listed((await given.json()).id)).experience_date).toBe('2025-05-20');
    const original = await importReview({ name: 'Gus', rating: 4, date: '2025-06-01' });
    expect((await listed((await original.json()).id)).experience_date).toBe('2025-06-01');
    const future = await importReview({ name: 'Hal', rating: 4, experience_date: '2026-05' });
    expect(future.status).toBe(422);
    expect((await future.json()).error.message).toBe('experience_date: must not be in the future');
  });
});

describe('experience_date of a bulk import (a file)', () => {
  const fixture = (name: string) => readFileSync(new URL(`../imports/fixtures/${name}`, import.meta.url));
  async function importFile(target: Webshop, file: string, fields: Record<string, string> = {}) {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    form.append('file', new Blob([new Uint8Array(fixture(file))]), file);
    const res = await t.admin(`/admin/api/webshops/${target.id}/imports`, { method: 'POST', body: form });
    expect(res.status).toBe(202);
    await drainImports(t.services, 'test-worker');
  }
  const listedOf = async (target: Webshop) =>
    (await (await t.fetch(withAuth('/api/1.0/ratings.json', target, { limit: '100' }))).json()).ratings as {
      name: string;
      date: string;
      experience_date: string;
    }[];

  it('the file’s order date when it has one, else the review’s original date', async () => {
    now = new Date('2026-04-15T12:00:00Z');
    // Yotpo carries an order date: Anna B. ordered on 1 March 2024 and wrote on 5 March.
    const yotpo = await t.createShop({ name: 'Yotpo BV' });
    await importFile(yotpo, 'yotpo.csv');
    expect((await listedOf(yotpo)).find((r) => r.name === 'Anna B.')).toMatchObject({
      date: '2024-03-05',
      experience_date: '2024-03-01',
    });
    // Trustpilot carries none: the original date (month first in this file) is the experience's.
    const trustpilot = await t.createShop({ name: 'Trustpilot BV' });
    await importFile(trustpilot, 'trustpilot.csv', { date_order: 'mdy' });
    const listed = await listedOf(trustpilot);
    expect(listed.length).toBeGreaterThan(0);
    for (const r of listed) expect(r.experience_date).toBe(r.date);
    expect(listed.map((r) => r.experience_date)).toContain('2024-04-03');
  });
});

describe('experience_date shown to shoppers', () => {
  it('on the shop page beside the review’s date, in the page’s language', async () => {
    const en = await (await t.fetch(`/webshops/${shop.id}?lang=en`)).text();
    expect(en).toContain('<time datetime="2026-03-10">Experience: March 2026</time>');
    expect(en).toContain('<time datetime="2025-05-20">Experience: May 2025</time>');
    const nl = await (await t.fetch(`/webshops/${shop.id}?lang=nl`)).text();
    expect(nl).toContain('Ervaring: maart 2026');
  });
});
