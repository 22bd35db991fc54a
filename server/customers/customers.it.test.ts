import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, withAuth, type TestApp } from '../../test/harness.js';
import type { Webshop } from '../webshops/store.js';
import type { Review } from '../reviews/model.js';
import type { ErasureReport } from './erase.js';
import { queuedEvents } from '../../test/webhook-events.js';

let t: TestApp;
let shopA: Webshop;
let shopB: Webshop;
// Without SMTP_URL e-mail goes to DATA_DIR/outbox, which erasure searches: never the developer's own.
const dataDir = mkdtempSync(join(tmpdir(), 'customers-'));
beforeAll(async () => {
  t = await startTestApp({ DATA_DIR: dataDir });
  shopA = await t.createShop({ name: 'A' });
  shopB = await t.createShop({ name: 'B' });
});
afterAll(async () => {
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** The erasure's answer: these counts, every other one 0. */
const counts = (some: Partial<ErasureReport>): ErasureReport => ({
  reviews_anonymised: 0,
  invitations_deleted: 0,
  consents_deleted: 0,
  popup_tokens_deleted: 0,
  webhook_deliveries_deleted: 0,
  webhook_deliveries_rewritten: 0,
  mail_records_deleted: 0,
  outbox_messages_deleted: 0,
  moderation_records_deleted: 0,
  ...some,
});

async function invite(shop: Webshop, email: string, order: string) {
  const res = await t.fetch(withAuth('/api/1.0/invitations.json', shop), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email, order }).toString(),
  });
  expect((await res.json()).message).toBe('Invitation successfully added to queue!');
}

async function seed(shop: Webshop, email: string, order: string) {
  const review = await t.services.reviews.create(shop.id, {
    name: 'Jane Doe',
    email,
    rating: 5,
    language: 'nl',
    order,
    comment: 'Top',
  });
  await invite(shop, email, order);
  await t.services.consents.record({
    shopId: shop.id,
    order,
    email,
    firstName: 'Jane',
    inviteDelay: 5,
    choice: 'write_now',
    language: 'nl',
    signed: true,
    textVersion: '1',
  });
  return review;
}

const erase = (query: string) => t.admin(`/admin/api/customers?${query}`, { method: 'DELETE' });
const review = (id: number) => t.db.collection<Review>('reviews').findOne({ id });

describe('DELETE /admin/api/customers', () => {
  it('erases a customer in one shop, then in all shops, whatever the case of the address', async () => {
    const a1 = await seed(shopA, 'jane@example.com', 'A-1');
    const a2 = await seed(shopA, 'Jane@Example.com', 'A-2');
    const b1 = await seed(shopB, 'jane@example.com', 'B-1');
    const bystander = await seed(shopA, 'john@example.com', 'A-3');
    // Cached before the erasure: the merchant's list must not keep showing the name.
    const before = await (await t.fetch(withAuth('/api/1.0/ratings.json', shopA))).json();
    expect(before.ratings.map((r: { name: string }) => r.name)).toContain('Jane Doe');

    // A pop-up link for her order, and webhook deliveries already made for her review and for someone else's.
    await t.services.popupTokens.issue({
      shopId: shopA.id,
      order: 'A-1',
      email: 'jane@example.com',
      firstName: 'Jane',
      inviteDelay: 5,
      signed: true,
      language: 'nl',
      consentCreated: new Date(),
    });
    const deliveries = t.db.collection<{ _id: string; eventId: string; status: string; body: string }>(
      'webhook_deliveries',
    );
    await deliveries.insertMany([
      { _id: `${a1.id}:1:999`, eventId: `${a1.id}:1`, status: 'delivered', body: '{"email":"jane@example.com"}' },
      {
        _id: `${bystander.id}:1:999`,
        eventId: `${bystander.id}:1`,
        status: 'delivered',
        body: '{"email":"john@example.com"}',
      },
    ]);

    const res = await erase(`email=${encodeURIComponent('JANE@example.com')}&webshop=${shopA.id}`);
    expect(res.status).toBe(200);
    // Each invitation had a queue entry (nothing was sent) and a due reminder: its sending records.
    expect(await res.json()).toEqual(
      counts({
        reviews_anonymised: 2,
        invitations_deleted: 2,
        consents_deleted: 2,
        popup_tokens_deleted: 1,
        webhook_deliveries_deleted: 1,
        mail_records_deleted: 4,
      }),
    );
    expect(await t.db.collection('popup_tokens').countDocuments({ email: 'jane@example.com' })).toBe(0);
    expect((await deliveries.find({}).toArray()).map((d) => d.eventId)).toEqual([`${bystander.id}:1`]);

    for (const id of [a1.id, a2.id]) {
      expect(await review(id)).toMatchObject({ name: 'Anoniem', email: '', rating: 5, comment: 'Top', deleted: false });
    }
    const events = await queuedEvents(t.db, a1.id);
    expect(events.map((e) => e.topic)).toEqual(['reviews.created', 'reviews.updated']);
    const after = await (await t.fetch(withAuth('/api/1.0/ratings.json', shopA))).json();
    expect(after.ratings.map((r: { name: string }) => r.name).sort()).toEqual(['Anoniem', 'Anoniem', 'Jane Doe']);

    // Shop B and the other customer are untouched.
    expect(await review(b1.id)).toMatchObject({ name: 'Jane Doe', email: 'jane@example.com' });
    expect(await review(bystander.id)).toMatchObject({ name: 'Jane Doe', email: 'john@example.com' });
    expect(await t.db.collection('invitations').countDocuments({ email: 'john@example.com' })).toBe(1);
    expect(await t.services.consents.get(shopA.id, 'A-3')).not.toBeNull();
    expect(await t.services.consents.get(shopB.id, 'B-1')).not.toBeNull();

    const all = await erase('email=jane%40example.com');
    expect(await all.json()).toEqual(
      counts({ reviews_anonymised: 1, invitations_deleted: 1, consents_deleted: 1, mail_records_deleted: 2 }),
    );
    expect(await review(b1.id)).toMatchObject({ name: 'Anoniem', email: '' });
    expect(await t.db.collection('invitations').countDocuments({ email: /jane@/i })).toBe(0);

    // Nothing left: a repeat changes nothing.
    expect(await (await erase('email=jane%40example.com')).json()).toEqual(counts({}));
  });

  it('treats the address as text, not a pattern', async () => {
    await seed(shopB, 'a.b@example.com', 'B-2');
    const res = await erase('email=a*b%40example.com');
    expect(await res.json()).toEqual(counts({}));
    expect(await t.services.consents.get(shopB.id, 'B-2')).not.toBeNull();
  });

  it.each([
    ['no email', ''],
    ['an empty email', 'email='],
    ['an invalid email', 'email=jane'],
    ['two emails', 'email=a%40example.com&email=b%40example.com'],
    ['an invalid webshop', 'email=a%40example.com&webshop=abc'],
  ])('answers 422 for %s', async (_name, query) => {
    const res = await erase(query);
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({ error: { code: 'validation_failed', message: expect.any(String) } });
  });

  it('answers 404 for an unknown webshop and 401 without the operator token', async () => {
    expect((await erase('email=a%40example.com&webshop=987654')).status).toBe(404);
    const res = await t.fetch('/admin/api/customers?email=a%40example.com', { method: 'DELETE' });
    expect(res.status).toBe(401);
  });
});
