// The consent pop-up's trust model (the hardening issue's HIGH point): what an attacker with nothing but a shop id
// and a guessable order number can and cannot do through the unsigned pop-up, and the rules that replace the old
// "first unsigned choice wins; an e-mail confirmation makes a review verified".
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, withAuth, type TestApp } from '../../test/harness.js';
import { orderSignature } from './signature.js';
import type { Invitation } from '../invitations/store.js';
import type { Review } from '../reviews/model.js';
import { DAY_MS } from '../time.js';
import { expireUnconfirmed } from '../reviews/publication.js';
import { migrateConsentTrust } from '../migrations/consent-trust.js';
import type { Webshop } from '../webshops/store.js';

let t: TestApp;
let ipCounter = 0;
/** Each call from its own client address: the pop-up's per-address limit is not what these tests are about. */
const freshIp = () => `10.9.${Math.floor(++ipCounter / 250)}.${(ipCounter % 250) + 1}`;

beforeAll(async () => {
  t = await startTestApp({ TRUST_PROXY: 'true' });
});
afterAll(() => t.close());

let orderCounter = 0;
const nextOrder = () => `T-${++orderCounter}`;
/** A new attacker address each time: e-mails to one typed address are limited to a few a day. */
const eve = () => `eve${++orderCounter}@attacker.example`;

interface Order {
  webshopId: number;
  orderNumber: string;
  email?: string;
  firstName?: string;
  inviteDelay?: number;
}

async function post(path: string, body: unknown) {
  const res = await t.fetch(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': freshIp() },
    body: JSON.stringify(body),
  });
  // biome-ignore lint/suspicious/noExplicitAny: the answers' JSON of several shapes, read field by field in the assertions
  return { status: res.status, json: (await res.json()) as Record<string, any> };
}

function consent(shop: Webshop, order: Order, choice: 'write_now' | 'ask_later', signed = false) {
  const signature = signed ? orderSignature(order, shop.id, shop.code) : undefined;
  return post(`/embed/${shop.id}/consent`, { order, signature, choice, language: 'en', textVersion: 'en.1' });
}

async function popupReview(shop: Webshop, reviewToken: string, extra: Record<string, unknown> = {}) {
  return post(`/embed/${shop.id}/reviews`, { reviewToken, rating: 5, comment: 'Great', name: 'Eve', ...extra });
}

const reviewById = async (id: number) =>
  (await t.db.collection<Review>('reviews').findOne({ id }, { projection: { _id: 0 } }))!;

/** The attacker's whole path: unsigned "write now" with their own address, a review, and its e-mailed link. */
async function attackerReview(shop: Webshop, orderNumber: string, email = eve()) {
  const chosen = await consent(shop, { webshopId: shop.id, orderNumber, email }, 'write_now');
  expect(chosen.status).toBe(201);
  const written = await popupReview(shop, chosen.json.reviewToken);
  expect(written.json.status).toBe('pending_confirmation');
  const { confirmToken } = await reviewById(written.json.id);
  const confirmed = await t.fetch(`/confirm/${confirmToken}`, { method: 'POST' });
  expect(confirmed.status).toBe(200);
  return written.json.id as number;
}

async function addInvitation(shop: Webshop, body: Record<string, string>) {
  const res = await t.fetch(withAuth('/api/1.0/invitations.json', shop), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(body).toString(),
  });
  return ((await res.json()) as { message: string }).message;
}

const invitationOf = (shop: Webshop, order: string) =>
  t.db.collection<Invitation>('invitations').findOne({ shopId: shop.id, order }) as Promise<Invitation>;

async function hasConsent(shop: Webshop, orderNumber: string) {
  const res = await t.fetch(withAuth('/api/2.0/order_permissions.json', shop, { orderNumber }));
  expect(res.status).toBe(200);
  return ((await res.json()) as { has_consent: boolean }).has_consent;
}

async function verifiedShare(shop: Webshop) {
  const body = await (await t.fetch(`/embed/${shop.id}/shop.json`)).json();
  return (body.badges as { key: string; value?: number }[]).find((b) => b.key === 'verified_share')?.value;
}

const QUEUED = 'Invitation successfully added to queue!';
const WRITTEN = 'No invitation queued: the customer already wrote a review for this order.';

describe('the five attacks of the issue, with a shop id and a guessed order number', () => {
  it('1. an unsigned review confirmed by e-mail is published as e-mail confirmed, never verified', async () => {
    const shop = await t.createShop();
    const id = await attackerReview(shop, '1001');
    expect(await reviewById(id)).toMatchObject({
      published: true,
      verified: false,
      emailConfirmed: true,
      quarantine: false,
    });
    const listed = await (await t.fetch(`/embed/${shop.id}/reviews.json`)).json();
    expect(listed.reviews).toEqual([expect.objectContaining({ id, verified: false })]);
    // The badge counts verified reviews only: one published review, none verified.
    expect(await verifiedShare(shop)).toBe(0);
  });

  it('2. the attacker’s review does not make the real invitation answer "already wrote a review"', async () => {
    const shop = await t.createShop();
    await attackerReview(shop, '1001');
    expect(await addInvitation(shop, { email: 'jane@example.com', order: '1001' })).toBe(QUEUED);
    expect(await invitationOf(shop, '1001')).toMatchObject({ email: 'jane@example.com' });
  });

  it('3. an unsigned "Ask me later" with inviteDelay 365 does not push the real customer’s invitation out', async () => {
    const shop = await t.createShop();
    const receiptsFrom = Date.now();
    const withAddress = { webshopId: shop.id, orderNumber: '1001', email: 'eve@attacker.example', inviteDelay: 365 };
    expect((await consent(shop, withAddress, 'ask_later')).status).toBe(201);
    const withoutAddress = { webshopId: shop.id, orderNumber: '1002', inviteDelay: 365 };
    expect((await consent(shop, withoutAddress, 'ask_later')).status).toBe(201);

    const before = Date.now();
    expect(await addInvitation(shop, { email: 'jane@example.com', order: '1001', delay: '0' })).toBe(QUEUED);
    expect(await addInvitation(shop, { email: 'john@example.com', order: '1002', delay: '0' })).toBe(QUEUED);
    const after = Date.now();
    // Another address's receipt counts for nothing; one without an address delays by at most 14 days (from the
    // receipt, which came before).
    const scheduled = (await invitationOf(shop, '1001')).scheduled.getTime();
    expect(scheduled).toBeGreaterThanOrEqual(before);
    expect(scheduled).toBeLessThanOrEqual(after);
    const capped = (await invitationOf(shop, '1002')).scheduled.getTime();
    expect(capped).toBeGreaterThanOrEqual(receiptsFrom + 14 * DAY_MS);
    expect(capped).toBeLessThanOrEqual(after + 14 * DAY_MS);
  });

  it('4. with require_signed_order_data, an unsigned consent is refused and old unsigned receipts give no consent', async () => {
    const shop = await t.createShop();
    const order = { webshopId: shop.id, orderNumber: '1001', email: 'eve@attacker.example' };
    expect((await consent(shop, order, 'ask_later')).status).toBe(201);
    expect(await hasConsent(shop, '1001')).toBe(true); // the residual risk without the setting

    const patched = await t.admin(`/admin/api/webshops/${shop.id}`, {
      method: 'PATCH',
      json: { require_signed_order_data: true },
    });
    expect(patched.status).toBe(200);
    expect(await hasConsent(shop, '1001')).toBe(false);
    const refused = await consent(shop, { ...order, orderNumber: '1002' }, 'ask_later');
    expect(refused.status).toBe(403);
    expect(await hasConsent(shop, '1002')).toBe(false);

    const signed = { webshopId: shop.id, orderNumber: '1003', email: 'jane@example.com' };
    expect((await consent(shop, signed, 'ask_later', true)).status).toBe(201);
    expect(await hasConsent(shop, '1003')).toBe(true);
  });

  it('5. the first unsigned choice does not lock the real customer out (409 only for the same address)', async () => {
    const shop = await t.createShop();
    expect(
      (await consent(shop, { webshopId: shop.id, orderNumber: '1001', email: 'eve@attacker.example' }, 'ask_later'))
        .status,
    ).toBe(201);
    const real = await consent(
      shop,
      { webshopId: shop.id, orderNumber: '1001', email: 'jane@example.com' },
      'write_now',
    );
    expect(real.status).toBe(201);
    expect(real.json.reviewToken).toEqual(expect.any(String));
    expect(
      (await consent(shop, { webshopId: shop.id, orderNumber: '1001', email: 'Jane@Example.com' }, 'ask_later')).status,
    ).toBe(409);
  });
});

describe('unsigned receipts, one per address', () => {
  it('coexist: the invitation follows the receipt recorded under its own address only', async () => {
    const shop = await t.createShop();
    const order = nextOrder();
    expect(
      (
        await consent(
          shop,
          { webshopId: shop.id, orderNumber: order, email: 'eve@attacker.example', inviteDelay: 365 },
          'ask_later',
        )
      ).status,
    ).toBe(201);
    expect(
      (
        await consent(
          shop,
          { webshopId: shop.id, orderNumber: order, email: 'jane@example.com', inviteDelay: 6 },
          'ask_later',
        )
      ).status,
    ).toBe(201);
    const own = await t.services.consents.unsigned(shop.id, order, 'JANE@example.com');
    expect(own).toMatchObject({ email: 'jane@example.com', inviteDelay: 6, signed: false });
    expect(await t.services.consents.unsigned(shop.id, order, 'eve@attacker.example')).toMatchObject({
      inviteDelay: 365,
    });
    expect(await hasConsent(shop, order)).toBe(true);

    expect(await addInvitation(shop, { email: 'jane@example.com', order, delay: '1' })).toBe(QUEUED);
    expect((await invitationOf(shop, order)).scheduled.getTime()).toBe(own!.created.getTime() + 6 * DAY_MS);
  });

  it('are superseded by a signed one: its delay applies, and their review tokens stop working', async () => {
    const shop = await t.createShop();
    const order = nextOrder();
    const unsigned = await consent(
      shop,
      { webshopId: shop.id, orderNumber: order, email: 'eve@attacker.example' },
      'write_now',
    );
    expect(
      (
        await consent(
          shop,
          { webshopId: shop.id, orderNumber: order, email: 'jane@example.com', inviteDelay: 30 },
          'ask_later',
        )
      ).status,
    ).toBe(201);
    const signedOrder = {
      webshopId: shop.id,
      orderNumber: order,
      email: 'jane@example.com',
      firstName: 'Jane',
      inviteDelay: 2,
    };
    expect((await consent(shop, signedOrder, 'ask_later', true)).status).toBe(201);
    expect((await popupReview(shop, unsigned.json.reviewToken)).status).toBe(403);
    // After the signed choice, unsigned ones are answered as already chosen.
    expect(
      (await consent(shop, { webshopId: shop.id, orderNumber: order, email: 'john@example.com' }, 'ask_later')).status,
    ).toBe(409);

    const signed = await t.services.consents.get(shop.id, order);
    expect(await addInvitation(shop, { email: 'jane@example.com', order, delay: '0' })).toBe(QUEUED);
    expect((await invitationOf(shop, order)).scheduled.getTime()).toBe(signed!.created.getTime() + 2 * DAY_MS);
  });

  it('without an address: never 409, delays by at most 14 days, and never answers "already written"', async () => {
    const shop = await t.createShop();
    const order = nextOrder();
    const first = await consent(shop, { webshopId: shop.id, orderNumber: order }, 'write_now');
    expect(first.status).toBe(201);
    const second = await consent(shop, { webshopId: shop.id, orderNumber: order, inviteDelay: 30 }, 'ask_later');
    expect(second.status).toBe(201);
    // Someone else's review under the first choice, confirmed with their own address.
    const written = await popupReview(shop, first.json.reviewToken, { email: eve() });
    expect(written.json.status).toBe('pending_confirmation');
    const { confirmToken } = await reviewById(written.json.id);
    expect((await t.fetch(`/confirm/${confirmToken}`, { method: 'POST' })).status).toBe(200);

    const receipt = await t.services.consents.unsigned(shop.id, order, '');
    expect(await addInvitation(shop, { email: 'jane@example.com', order, delay: '0' })).toBe(QUEUED);
    expect((await invitationOf(shop, order)).scheduled.getTime()).toBe(receipt!.created.getTime() + 14 * DAY_MS);
  });
});

describe('verified only through the shop’s own invitation, for an unsigned pop-up review', () => {
  it('a review under an address typed into the form becomes verified when the shop invites that address', async () => {
    const shop = await t.createShop();
    const order = nextOrder();
    const chosen = await consent(shop, { webshopId: shop.id, orderNumber: order }, 'write_now');
    const written = await popupReview(shop, chosen.json.reviewToken, { email: 'Jane@Example.com' });
    expect(await addInvitation(shop, { email: 'jane@example.com', order })).toBe(WRITTEN);
    expect(await reviewById(written.json.id)).toMatchObject({
      published: true,
      verified: true,
      emailConfirmed: false,
      confirmToken: null,
    });
  });

  it('a review confirmed by e-mail first is upgraded to verified by the invitation', async () => {
    const shop = await t.createShop();
    const order = nextOrder();
    const id = await attackerReview(shop, order, 'jane@example.com');
    expect(await reviewById(id)).toMatchObject({ verified: false, emailConfirmed: true });
    expect(await verifiedShare(shop)).toBe(0);
    expect(await addInvitation(shop, { email: 'jane@example.com', order })).toBe(WRITTEN);
    expect(await reviewById(id)).toMatchObject({ published: true, verified: true, emailConfirmed: true });
    expect(await verifiedShare(shop)).toBe(100);
  });
});

describe('require_signed_order_data', () => {
  it('is false by default, set by the operator, and shown to the embed in shop.json', async () => {
    const shop = await t.createShop();
    const read = async () => (await (await t.admin(`/admin/api/webshops/${shop.id}`)).json()).require_signed_order_data;
    expect(await read()).toBe(false);
    expect((await (await t.fetch(`/embed/${shop.id}/shop.json`)).json()).require_signed_order_data).toBe(false);
    await t.admin(`/admin/api/webshops/${shop.id}`, { method: 'PATCH', json: { require_signed_order_data: true } });
    expect(await read()).toBe(true);
    expect((await (await t.fetch(`/embed/${shop.id}/shop.json`)).json()).require_signed_order_data).toBe(true);
    const bad = await t.admin(`/admin/api/webshops/${shop.id}`, {
      method: 'PATCH',
      json: { require_signed_order_data: 'yes' },
    });
    expect(bad.status).toBe(422);
  });

  it('stops an unsigned review token issued before it was switched on; signed reviews go on', async () => {
    const shop = await t.createShop();
    const chosen = await consent(
      shop,
      { webshopId: shop.id, orderNumber: nextOrder(), email: 'jane@example.com' },
      'write_now',
    );
    const signedOrder = { webshopId: shop.id, orderNumber: nextOrder(), email: 'john@example.com' };
    const signed = await consent(shop, signedOrder, 'write_now', true);
    await t.admin(`/admin/api/webshops/${shop.id}`, { method: 'PATCH', json: { require_signed_order_data: true } });
    const refused = await popupReview(shop, chosen.json.reviewToken);
    expect(refused.status).toBe(403);
    expect(refused.json.error.message).toBe('This shop accepts only signed order data.');
    const published = await popupReview(shop, signed.json.reviewToken);
    expect(published.json.status).toBe('published');
    expect(await reviewById(published.json.id)).toMatchObject({ verified: true });
  });
});

describe('start-up migration', () => {
  it('re-keys unsigned receipts an older version stored under the order key, idempotently', async () => {
    const shop = await t.createShop();
    const created = new Date(Date.now() - DAY_MS);
    const legacy = (order: string, email: string, signed: boolean) => ({
      _id: `${shop.id}:${order}`,
      shopId: shop.id,
      order,
      email,
      firstName: 'Jane',
      inviteDelay: 20,
      choice: 'ask_later',
      created,
      language: 'en',
      signed,
      textVersion: 'en.1',
    });
    const consents = t.db.collection<Record<string, unknown> & { _id: string }>('consents');
    // A deployment over data of the older version: its receipts, and no marker of the migration yet.
    await t.db.collection('migrations').deleteOne({ _id: 'consents.unsigned-by-address' as never });
    await consents.insertMany([
      legacy('L-1', 'jane@example.com', false),
      legacy('L-2', '', false),
      legacy('L-3', 'john@example.com', true),
    ]);

    await migrateConsentTrust(t.services);
    expect(await t.services.consents.migrateUnsigned()).toBe(0);
    await migrateConsentTrust(t.services);

    expect(await consents.countDocuments({ shopId: shop.id })).toBe(3);
    expect(await t.services.consents.get(shop.id, 'L-1')).toBeNull();
    expect(await t.services.consents.unsigned(shop.id, 'L-1', 'Jane@Example.com')).toMatchObject({
      email: 'jane@example.com',
      signed: false,
    });
    expect(await t.services.consents.unsigned(shop.id, 'L-2', '')).toMatchObject({ email: '', inviteDelay: 20 });
    expect(await t.services.consents.get(shop.id, 'L-3')).toMatchObject({ signed: true, email: 'john@example.com' });
    for (const order of ['L-1', 'L-2', 'L-3']) expect(await hasConsent(shop, order)).toBe(true);

    // The re-keyed receipt speaks for its address again: its delay applies to that address's invitation.
    expect(await addInvitation(shop, { email: 'jane@example.com', order: 'L-1', delay: '0' })).toBe(QUEUED);
    expect((await invitationOf(shop, 'L-1')).scheduled.getTime()).toBe(created.getTime() + 20 * DAY_MS);

    // One written by a process of the older version after the migration ran is moved when first read, and is
    // never taken for a signed receipt.
    await consents.insertOne(legacy('L-4', 'jane@example.com', false));
    await hasConsent(shop, 'L-4');
    expect(await t.services.consents.get(shop.id, 'L-4')).toBeNull();
    expect(await hasConsent(shop, 'L-4')).toBe(true);
    expect(await t.services.consents.unsigned(shop.id, 'L-4', 'jane@example.com')).toMatchObject({ signed: false });
    expect(await consents.countDocuments({ _id: `${shop.id}:L-4` })).toBe(0);
  });

  it('queues reviews that already waited for confirmation, once', async () => {
    const shop = await t.createShop();
    const waiting = await t.services.reviews.create(shop.id, {
      name: 'Old',
      email: 'old@example.com',
      rating: 4,
      language: 'en',
      source: 'form',
      quarantine: true,
      confirmToken: 'oldconfirmtokenabcdefghijklmnop',
    });
    expect(await t.services.confirmations.get(waiting.id)).toBeNull();
    await t.db.collection('migrations').deleteOne({ _id: 'review_confirmations.backfill' as never });
    await migrateConsentTrust(t.services);
    await migrateConsentTrust(t.services);
    expect(await t.services.confirmations.get(waiting.id)).toMatchObject({ shopId: shop.id, receipt: null });
    expect((await t.services.confirmations.get(waiting.id))!.expires.getTime()).toBe(
      waiting.created.getTime() + 30 * DAY_MS,
    );
  });
});

describe('unconfirmed reviews expire after 30 days', () => {
  it('removes the waiting ones (pop-up and form), logs how many, and leaves confirmed ones', async () => {
    const shop = await t.createShop();
    const order = nextOrder();
    const chosen = await consent(shop, { webshopId: shop.id, orderNumber: order, email: eve() }, 'write_now');
    const popup = await popupReview(shop, chosen.json.reviewToken);
    expect(popup.status).toBe(201);
    const form = await post(`/embed/${shop.id}/experiences`, { rating: 2, name: 'Bot', email: eve(), comment: 'Meh' });
    expect(form.status).toBe(202);
    const formId = (await t.db.collection<Review>('reviews').findOne({ shopId: shop.id, source: 'form' }))!.id;
    const confirmedId = await attackerReview(shop, nextOrder(), 'kept@example.com');
    const receiptId = `u:${(await t.db.collection('consents').findOne({ shopId: shop.id, order }))!.key}:${shop.id}:${order}`;
    expect(await t.db.collection('consents').findOne({ _id: receiptId as never })).toMatchObject({
      reviewId: popup.json.id,
    });

    const info = vi.spyOn(t.services.log, 'info');
    const later = (days: number) => new Date(Date.now() + days * DAY_MS);
    expect(await expireUnconfirmed(t.services, later(29))).toBe(0);
    expect(await t.db.collection('reviews').countDocuments({ id: { $in: [popup.json.id, formId] } })).toBe(2);

    const removed = await expireUnconfirmed(t.services, later(31));
    expect(removed).toBeGreaterThanOrEqual(2);
    expect(info).toHaveBeenCalledWith({ removed, days: 30 }, 'unconfirmed reviews expired');
    info.mockRestore();
    expect(await t.db.collection('reviews').countDocuments({ id: { $in: [popup.json.id, formId] } })).toBe(0);
    expect(await reviewById(confirmedId)).toMatchObject({ published: true, emailConfirmed: true });
    expect(await t.services.confirmations.get(popup.json.id)).toBeNull();
    // The receipt stays (receipts do not expire) and counts again as one without a review.
    expect(await t.db.collection('consents').findOne({ _id: receiptId as never })).toMatchObject({ reviewId: null });
    expect(await expireUnconfirmed(t.services, later(31))).toBe(0);
  });
});

describe('a review waiting in quarantine changes nothing public', () => {
  it('does not reload the public read model, but the merchant sees it at once', async () => {
    const shop = await t.createShop();
    await t.services.reviews.create(shop.id, {
      name: 'Ann',
      email: 'ann@example.com',
      rating: 5,
      language: 'en',
      verified: true,
    });
    const before = await t.services.ratings.publishedPage(shop.id, 0, 10);
    const versions = await t.services.reviews.versionsOf(shop.id);

    const chosen = await consent(shop, { webshopId: shop.id, orderNumber: nextOrder(), email: eve() }, 'write_now');
    const written = await popupReview(shop, chosen.json.reviewToken);
    expect(written.status).toBe(201);

    const after = await t.services.ratings.publishedPage(shop.id, 0, 10);
    expect(after.total).toBe(1);
    expect(after.reviews[0]).toBe(before.reviews[0]); // the same cached object: nothing was reloaded
    expect(await t.services.reviews.versionsOf(shop.id)).toEqual({ all: versions.all + 1, public: versions.public });
    const merchant = await t.services.ratings.page(shop.id, { offset: 0, limit: 10 });
    expect(merchant.ratings.map((r) => r.quarantine)).toEqual([true, false]);

    // Once confirmed it is public, and the public model follows.
    const { confirmToken } = await reviewById(written.json.id);
    await t.fetch(`/confirm/${confirmToken}`, { method: 'POST' });
    expect((await t.services.ratings.publishedPage(shop.id, 0, 10)).total).toBe(2);
  });
});

describe('the per-shop cap on unsigned receipts without a review', () => {
  let small: TestApp;
  beforeAll(async () => {
    small = await startTestApp({ TRUST_PROXY: 'true', UNSIGNED_CONSENTS_PER_SHOP: '10' });
  });
  afterAll(() => small.close());

  it('drops the oldest past the cap, keeps those with a review and signed ones, and refuses nothing', async () => {
    const app = t;
    t = small;
    try {
      const shop = await small.createShop();
      const reviewed = await consent(
        shop,
        { webshopId: shop.id, orderNumber: 'C-0', email: 'c0@example.com' },
        'write_now',
      );
      await popupReview(shop, reviewed.json.reviewToken);
      expect(
        (await consent(shop, { webshopId: shop.id, orderNumber: 'S-1', email: 's@example.com' }, 'ask_later', true))
          .status,
      ).toBe(201);
      const info = vi.spyOn(small.services.log, 'info');
      for (let i = 1; i <= 12; i++) {
        expect(
          (await consent(shop, { webshopId: shop.id, orderNumber: `C-${i}`, email: `c${i}@example.com` }, 'ask_later'))
            .status,
        ).toBe(201);
      }
      expect(info).toHaveBeenCalledWith(
        { shopId: shop.id, dropped: 2 },
        'oldest unsigned consent receipts dropped (per-shop cap)',
      );
      info.mockRestore();
      const answers = await Promise.all(
        ['C-0', 'S-1', ...Array.from({ length: 12 }, (_, i) => `C-${i + 1}`)].map((o) => hasConsent(shop, o)),
      );
      expect(answers).toEqual([true, true, false, false, ...Array(10).fill(true)]);
      expect(await small.db.collection('consents').countDocuments({ shopId: shop.id })).toBe(12);
      expect(
        (await consent(shop, { webshopId: shop.id, orderNumber: 'S-2', email: 's@example.com' }, 'write_now', true))
          .status,
      ).toBe(201);
    } finally {
      t = app;
    }
  });
});
