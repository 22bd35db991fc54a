// Issue 11, "Origin of every review": each path that writes a review sets its origin, and the shop's own Add
// invitation promotes an e-mail-confirmed pop-up review with one reviews.updated event.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, withAuth, type TestApp } from '../../test/harness.js';
import { orderSignature } from '../consents/signature.js';
import type { Invitation } from '../invitations/store.js';
import type { Review } from './model.js';
import type { Webshop } from '../webshops/store.js';

let t: TestApp;
let shop: Webshop;
let ipCounter = 0;
const freshIp = () => `10.11.${Math.floor(++ipCounter / 250)}.${(ipCounter % 250) + 1}`;
let orderCounter = 0;
const nextOrder = () => `O-${++orderCounter}`;

beforeAll(async () => {
  t = await startTestApp({ TRUST_PROXY: 'true' });
  shop = await t.createShop();
});
afterAll(() => t.close());

async function post(path: string, body: unknown) {
  const res = await t.fetch(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': freshIp() },
    body: JSON.stringify(body),
  });
  // biome-ignore lint/suspicious/noExplicitAny: the answers' JSON of several shapes, read field by field in the assertions
  return { status: res.status, json: (await res.json()) as Record<string, any> };
}

async function addInvitation(fields: Record<string, string>) {
  const res = await t.fetch(withAuth('/api/1.0/invitations.json', shop), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
  return (await res.json()) as { status: string; message: string };
}

const reviewById = async (id: number) =>
  (await t.db.collection<Review>('reviews').findOne({ id }, { projection: { _id: 0 } }))!;
/** The review as ratings.json lists it to the shop. */
async function listed(id: number) {
  const body = await (await t.fetch(withAuth('/api/1.0/ratings.json', shop, { limit: '100' }))).json();
  return (body.ratings as { id: number }[]).find((r) => r.id === id) as Record<string, unknown>;
}

async function popup(order: string, signed: boolean, email: string) {
  const o = { webshopId: shop.id, orderNumber: order, email };
  const signature = signed ? orderSignature(o, shop.id, shop.code) : undefined;
  const chosen = await post(`/embed/${shop.id}/consent`, {
    order: o,
    signature,
    choice: 'write_now',
    language: 'en',
    textVersion: 'en.1',
  });
  expect(chosen.status).toBe(201);
  const written = await post(`/embed/${shop.id}/reviews`, {
    reviewToken: chosen.json.reviewToken,
    rating: 5,
    comment: 'Fine',
    name: 'Jane',
  });
  expect(written.status).toBe(201);
  return written.json.id as number;
}

async function reviewThroughInvitation(extra: Record<string, string> = {}) {
  const order = nextOrder();
  expect((await addInvitation({ email: 'jane@example.com', order, ...extra })).status).toBe('success');
  const invitation = (await t.db.collection<Invitation>('invitations').findOne({ shopId: shop.id, order }))!;
  const res = await t.fetch(`/review/${invitation.token}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ rating: '5', name: 'Jane', comment: 'Good' }).toString(),
  });
  expect(res.status).toBe(200);
  return (await t.db.collection<Review>('reviews').findOne({ shopId: shop.id, order }))!;
}

describe('origin set by each path that writes a review', () => {
  it('the review link of an invitation: verified_order, not incentivised unless the invitation said so', async () => {
    const plain = await reviewThroughInvitation();
    expect(plain).toMatchObject({
      origin: 'verified_order',
      incentivised: false,
      imported_from: null,
      original_date: null,
    });
    expect(await listed(plain.id)).toMatchObject({
      origin: 'verified_order',
      incentivised: false,
      imported_from: null,
      original_date: null,
    });

    const paid = await reviewThroughInvitation({ incentivised: '1' });
    expect(paid).toMatchObject({ origin: 'verified_order', incentivised: true });
    expect(await listed(paid.id)).toMatchObject({ incentivised: true });
  });

  it('Add invitation refuses an incentivised value other than 0 or 1, naming the field', async () => {
    const res = await addInvitation({ email: 'jane@example.com', order: nextOrder(), incentivised: 'yes' });
    expect(res).toMatchObject({ status: 'error', message: 'The parameter incentivised must be 0 or 1.' });
  });

  it('a pop-up review with signed order data: verified_order', async () => {
    const id = await popup(nextOrder(), true, 'jane@example.com');
    expect(await reviewById(id)).toMatchObject({ origin: 'verified_order', published: true });
  });

  it('an unsigned pop-up review confirmed by e-mail: email_confirmed; the shop’s matching invitation promotes it once', async () => {
    const order = nextOrder();
    const id = await popup(order, false, 'jane@example.com');
    const { confirmToken } = await reviewById(id);
    expect((await t.fetch(`/confirm/${confirmToken}`, { method: 'POST' })).status).toBe(200);
    const confirmed = await reviewById(id);
    expect(confirmed).toMatchObject({ origin: 'email_confirmed', published: true, announced: true });

    // Another address proves nothing.
    await addInvitation({ email: 'john@example.com', order });
    expect((await reviewById(id)).origin).toBe('email_confirmed');

    await addInvitation({ email: 'Jane@Example.com', order });
    expect(await reviewById(id)).toMatchObject({ origin: 'verified_order', verified: true });
    expect(await listed(id)).toMatchObject({ origin: 'verified_order' });
    // One write of the published review (one version: one reviews.updated event, store.ts); a repeat changes nothing.
    expect((await reviewById(id)).version).toBe(confirmed.version + 1);
    await addInvitation({ email: 'jane@example.com', order });
    expect((await reviewById(id)).version).toBe(confirmed.version + 1);
  });

  it('an unsigned pop-up review released by the matching invitation before any confirmation: verified_order', async () => {
    const order = nextOrder();
    const id = await popup(order, false, 'ann@example.com');
    expect((await reviewById(id)).published).toBe(false);
    await addInvitation({ email: 'ann@example.com', order });
    expect(await reviewById(id)).toMatchObject({ origin: 'verified_order', published: true });
  });

  it('a review from the public form: email_confirmed', async () => {
    const sent = await post(`/embed/${shop.id}/experiences`, {
      rating: 4,
      comment: 'Nice',
      name: 'Piet',
      email: 'piet@example.com',
      language: 'en',
      website: '',
    });
    expect(sent.status).toBe(202);
    const review = (await t.db.collection<Review>('reviews').findOne({ shopId: shop.id, source: 'form' }))!;
    expect(review.origin).toBe('email_confirmed');
    expect((await t.fetch(`/confirm/${review.confirmToken}`, { method: 'POST' })).status).toBe(200);
    expect(await reviewById(review.id)).toMatchObject({ origin: 'email_confirmed', published: true, verified: false });
  });

  it('an operator import: imported, with its platform, original date, incentive and the source’s claim kept apart', async () => {
    const res = await t.admin(`/admin/api/webshops/${shop.id}/reviews`, {
      method: 'POST',
      json: {
        rating: 4,
        name: 'Old',
        created: '2021-03-04 05:06:07',
        imported_from: 'Kiyoh',
        incentivised: true,
        source_verified: true,
      },
    });
    expect(res.status).toBe(201);
    const { id } = await res.json();
    expect(await reviewById(id)).toMatchObject({
      origin: 'imported',
      verified: false,
      source_verified: true,
      imported_from: 'Kiyoh',
      incentivised: true,
    });
    expect(await listed(id)).toMatchObject({
      origin: 'imported',
      imported_from: 'Kiyoh',
      incentivised: true,
      original_date: '2021-03-04T05:06:07.000Z',
    });
    const operator = await (await t.admin(`/admin/api/reviews/${id}`)).json();
    expect(operator).toMatchObject({
      origin: 'imported',
      imported_from: 'Kiyoh',
      incentivised: true,
      source_verified: true,
    });

    const bad = await t.admin(`/admin/api/webshops/${shop.id}/reviews`, {
      method: 'POST',
      json: { rating: 4, imported_from: { $ne: 1 } },
    });
    expect(bad.status).toBe(422);
    expect((await bad.json()).error.message).toMatch(/^imported_from:/);
  });

  it('the operator marks a review incentivised (one reviews.updated event) and back', async () => {
    const review = await reviewThroughInvitation();
    const patch = (json: unknown) => t.admin(`/admin/api/reviews/${review.id}`, { method: 'PATCH', json });
    const res = await patch({ incentivised: true });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ incentivised: true, origin: 'verified_order' });
    expect((await reviewById(review.id)).version).toBe(review.version + 1);
    expect((await patch({ incentivised: 'yes' })).status).toBe(422);
    expect((await patch({ incentivised: false })).status).toBe(200);
    expect((await reviewById(review.id)).incentivised).toBe(false);
  });

  it('the embed API shows origin, incentive and platform on each review', async () => {
    const body = await (await t.fetch(`/embed/${shop.id}/reviews.json?limit=20`)).json();
    const kinds = new Set((body.reviews as { origin: string }[]).map((r) => r.origin));
    expect(kinds).toEqual(new Set(['verified_order', 'email_confirmed', 'imported']));
    const imported = (body.reviews as Record<string, unknown>[]).find((r) => r.origin === 'imported');
    expect(imported).toMatchObject({ imported_from: 'Kiyoh', incentivised: true });
  });
});
