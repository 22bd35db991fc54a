import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, withAuth, type TestApp } from '../../test/harness.js';
import { orderSignature, type OrderFields } from '../consents/signature.js';
import type { Invitation } from '../invitations/store.js';
import type { Review } from '../reviews/model.js';
import { DAY_MS } from '../time.js';
import type { Webshop } from '../webshops/store.js';

let t: TestApp;
let shop: Webshop;
let ipCounter = 0;
/** Each test posts from its own client address, so the per-address limits only meet the tests about them. */
const freshIp = () => `10.0.${Math.floor(++ipCounter / 250)}.${(ipCounter % 250) + 1}`;

beforeAll(async () => {
  t = await startTestApp({ TRUST_PROXY: 'true' });
  shop = await t.createShop({ name: 'Fiets & Co', url: 'https://fiets.example/', approved_date: '2023-04-05' });
});
afterAll(() => t.close());

async function post(path: string, body: unknown, ip = freshIp()) {
  const res = await t.fetch(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': ip, origin: 'https://fiets.example' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  // biome-ignore lint/suspicious/noExplicitAny: the answers' JSON of several shapes, read field by field in the assertions
  return { res, json: (await res.json()) as Record<string, any> };
}

let orderCounter = 0;
const newOrder = (
  extra: Partial<{ webshopId: number; email: string; firstName: string; inviteDelay: number }> = {},
) => ({
  webshopId: shop.id,
  orderNumber: `E-${++orderCounter}`,
  email: 'jane@example.com',
  firstName: 'Jane',
  inviteDelay: 3,
  ...extra,
});
const sign = (order: OrderFields, s: Pick<Webshop, 'id' | 'code'> = shop) => orderSignature(order, s.id, s.code);

async function consent(order: ReturnType<typeof newOrder>, choice: 'write_now' | 'ask_later', signature?: string) {
  return post(`/embed/${shop.id}/consent`, { order, signature, choice, language: 'nl', textVersion: 'popup-v1' });
}

const review = (reviewToken: string, extra: Record<string, unknown> = {}) => ({
  reviewToken,
  rating: 5,
  ratings: { shippingtime: 4, customerservice: 5 },
  comment: 'Snel geleverd.',
  name: 'Jane D.',
  country: 'nl',
  ...extra,
});

const stored = (id: number) => t.db.collection<Review>('reviews').findOne({ id }) as Promise<Review>;

async function hasConsent(orderNumber: string) {
  const res = await t.fetch(withAuth('/api/2.0/order_permissions.json', shop, { orderNumber }));
  return ((await res.json()) as { has_consent: boolean }).has_consent;
}

async function addInvitation(body: Record<string, string>) {
  const res = await t.fetch(withAuth('/api/1.0/invitations.json', shop), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(body).toString(),
  });
  return ((await res.json()) as { message: string }).message;
}

describe('GET /embed/{id}/shop.json', () => {
  it('answers the shop, its score and badges, readable from any origin and cacheable for a minute', async () => {
    const s = await t.createShop({ name: 'Boek <b>', url: 'https://boek.example/', approved_date: '2022-01-31' });
    await t.db
      .collection('webshops')
      .updateOne({ id: s.id }, { $set: { created: new Date(Date.now() - 800 * DAY_MS) } });
    await t.admin(`/admin/api/webshops/${s.id}`, {
      method: 'PATCH',
      json: { sidebar: { theme: 'light', position: 'right' } },
    });
    await t.services.reviews.create(s.id, {
      name: 'A',
      email: 'a@example.com',
      rating: 5,
      language: 'en',
      verified: true,
    });
    await t.services.reviews.create(s.id, { name: 'B', email: 'b@example.com', rating: 4, language: 'en' });
    await t.services.reviews.create(s.id, {
      name: 'C',
      email: 'c@example.com',
      rating: 1,
      language: 'en',
      quarantine: true,
    });

    const res = await t.fetch(`/embed/${s.id}/shop.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('cache-control')).toBe('public, max-age=60');
    expect(res.headers.get('set-cookie')).toBeNull();
    expect(await res.json()).toEqual({
      id: s.id,
      name: 'Boek <b>',
      url: 'https://boek.example/',
      page: `http://127.0.0.1:1/webshops/${s.id}`,
      logo: '',
      language: 'en',
      languages: ['en'],
      score: 9,
      count: 2,
      badges: [
        { key: 'approved', since: '2022-01-31' },
        { key: 'verified_share', value: 50 },
        { key: 'member_years', value: 2 },
      ],
      settings: { theme: 'light', position: 'right' },
      require_signed_order_data: false,
    });
  });

  it('gives a new shop without reviews score 0 and no badges', async () => {
    const s = await t.createShop();
    const body = await (await t.fetch(`/embed/${s.id}/shop.json`)).json();
    expect(body).toMatchObject({ score: 0, count: 0, badges: [], settings: {} });
  });

  it('answers 404 in the JSON error shape for an unknown shop or an id that is not digits', async () => {
    for (const path of ['/embed/987654/shop.json', '/embed/12a/shop.json']) {
      const res = await t.fetch(path);
      expect(res.status).toBe(404);
      expect((await res.json()).error.code).toBe('not_found');
    }
  });
});

describe('GET /embed/{id}/reviews.json', () => {
  let s: Webshop;
  beforeAll(async () => {
    s = await t.createShop();
    const base = Date.now() - 10 * DAY_MS;
    for (let i = 0; i < 7; i++) {
      await t.services.reviews.create(s.id, {
        name: `R${i}`,
        email: `r${i}@example.com`,
        rating: 1 + (i % 5),
        language: 'nl',
        country: 'NL',
        created: new Date(base + i * DAY_MS),
        verified: i % 2 === 0,
        source: 'popup',
      });
    }
    await t.services.reviews.create(s.id, {
      name: 'Hidden',
      email: 'h@example.com',
      rating: 5,
      language: 'nl',
      quarantine: true,
    });
    const [newest] = await t.db.collection<Review>('reviews').find({ shopId: s.id, name: 'R6' }).toArray();
    await t.services.reviews.update(newest!.id, {
      reply: {
        text: 'Dank!',
        date: new Date(Date.UTC(2024, 0, 2, 3, 4, 5)),
        notify: false,
        revision: 1,
        notified: null,
      },
    });
  });

  it('pages published reviews newest first, with replies and without e-mail addresses', async () => {
    const res = await t.fetch(`/embed/${s.id}/reviews.json`);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const body = await res.json();
    expect(body.total).toBe(7);
    expect(body.reviews.map((r: { name: string }) => r.name)).toEqual(['R6', 'R5', 'R4', 'R3', 'R2']);
    expect(body.reviews[0]).toEqual({
      id: expect.any(Number),
      name: 'R6',
      rating: 2,
      ratings: { shippingtime: 0, customerservice: 0, pricequality: 0, aftersale: 0 },
      comment: null,
      date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      country: 'NL',
      verified: true,
      origin: 'verified_order',
      incentivised: false,
      imported_from: null,
      reply: 'Dank!',
      reply_date: '2024-01-02 03:04:05',
    });
    expect(JSON.stringify(body)).not.toContain('@example.com');
    const next = await (await t.fetch(`/embed/${s.id}/reviews.json?offset=5&limit=5`)).json();
    expect(next.reviews.map((r: { name: string }) => r.name)).toEqual(['R1', 'R0']);
  });

  it('clamps limit into 1–20 and refuses a non-number', async () => {
    expect((await (await t.fetch(`/embed/${s.id}/reviews.json?limit=500`)).json()).reviews).toHaveLength(7);
    expect((await (await t.fetch(`/embed/${s.id}/reviews.json?limit=0`)).json()).reviews).toHaveLength(1);
    const res = await t.fetch(`/embed/${s.id}/reviews.json?offset=abc`);
    expect(res.status).toBe(400);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect((await res.json()).error.code).toBe('bad_request');
  });
});

describe('CORS preflight', () => {
  it('answers OPTIONS for the POST endpoints with the allowed method and header', async () => {
    for (const path of ['order/verify', 'consent', 'reviews', 'experiences']) {
      const res = await t.fetch(`/embed/${shop.id}/${path}`, {
        method: 'OPTIONS',
        headers: {
          origin: 'https://fiets.example',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type',
        },
      });
      expect(res.status).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('access-control-allow-methods')).toContain('POST');
      expect(res.headers.get('access-control-allow-headers')).toMatch(/content-type/i);
      expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    }
  });
});

describe('POST /embed/{id}/order/verify', () => {
  it('says whether the signature is valid, and whether a signed choice exists, storing nothing', async () => {
    const order = newOrder();
    const before = await t.db.collection('consents').countDocuments();
    const { res, json } = await post(`/embed/${shop.id}/order/verify`, { order, signature: sign(order) });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(json).toEqual({ valid: true, recorded: false });
    expect(await t.db.collection('consents').countDocuments()).toBe(before);

    expect((await consent(order, 'ask_later', sign(order))).res.status).toBe(201);
    expect((await post(`/embed/${shop.id}/order/verify`, { order, signature: sign(order) })).json).toEqual({
      valid: true,
      recorded: true,
    });
  });

  it('answers valid false for a wrong signature, and never reveals a choice then', async () => {
    const order = newOrder();
    await consent(order, 'ask_later', sign(order));
    const { json } = await post(`/embed/${shop.id}/order/verify`, {
      order: { ...order, email: 'eve@example.com' },
      signature: sign(order),
    });
    expect(json).toEqual({ valid: false, recorded: false });
  });

  it('accepts numbers printed as strings, as the shop signed them', async () => {
    const order = { webshopId: String(shop.id), orderNumber: '000123', email: 'jane@example.com', inviteDelay: '3' };
    const { json } = await post(`/embed/${shop.id}/order/verify`, { order, signature: sign(order) });
    expect(json.valid).toBe(true);
  });

  it('answers 400 for order data of another shop or without a signature', async () => {
    const order = newOrder({ webshopId: shop.id + 1 });
    expect((await post(`/embed/${shop.id}/order/verify`, { order, signature: sign(order) })).res.status).toBe(400);
    expect((await post(`/embed/${shop.id}/order/verify`, { order: newOrder() })).res.status).toBe(400);
  });
});

describe('POST /embed/{id}/consent', () => {
  it('records an unsigned Ask me later: no token, and order_permissions answers has_consent true', async () => {
    const order = newOrder();
    expect(await hasConsent(order.orderNumber)).toBe(false);
    const { res, json } = await consent(order, 'ask_later');
    expect(res.status).toBe(201);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(json).toEqual({ recorded: true, signed: false });
    expect(await hasConsent(order.orderNumber)).toBe(true);
    // Unsigned receipts are kept per address (the trust model of the hardening issue).
    expect(await t.services.consents.unsigned(shop.id, order.orderNumber, order.email)).toMatchObject({
      email: 'jane@example.com',
      firstName: 'Jane',
      inviteDelay: 3,
      choice: 'ask_later',
      language: 'nl',
      signed: false,
      textVersion: 'popup-v1',
    });
  });

  it('records a signed Write now with a review token, and has_consent is true', async () => {
    const order = newOrder();
    const { res, json } = await consent(order, 'write_now', sign(order));
    expect(res.status).toBe(201);
    expect(json).toEqual({ recorded: true, signed: true, reviewToken: expect.stringMatching(/^[A-Za-z0-9_-]{32,}$/) });
    expect(await hasConsent(order.orderNumber)).toBe(true);
  });

  it('refuses a wrong signature with 403 and records nothing', async () => {
    const order = newOrder();
    const other = await t.createShop();
    const { res, json } = await consent(order, 'write_now', sign(order, other));
    expect(res.status).toBe(403);
    expect(json.error.code).toBe('forbidden');
    expect(await hasConsent(order.orderNumber)).toBe(false);
  });

  it('keeps the first choice (409), but lets the signed choice replace an unsigned one', async () => {
    const order = newOrder();
    const first = await consent(order, 'write_now');
    expect((await consent(order, 'ask_later')).res.status).toBe(409);
    const signed = await consent(order, 'ask_later', sign(order));
    expect(signed.res.status).toBe(201);
    expect((await consent(order, 'write_now', sign(order))).res.status).toBe(409);
    // The unsigned choice's token no longer works.
    expect((await post(`/embed/${shop.id}/reviews`, review(first.json.reviewToken))).res.status).toBe(403);
  });

  it.each([
    ['an unknown choice', { choice: 'maybe' }],
    ['a text version over 40 characters', { textVersion: 'x'.repeat(41) }],
    ['no text version', { textVersion: undefined }],
    ['no order number', { order: { orderNumber: '  ' } }],
    ['order data of another shop', { order: { webshopId: 987_654 } }],
    ['an operator in the order number', { order: { orderNumber: { $ne: '' } } }],
  ])('answers 400 for %s', async (_name, change: Record<string, unknown>) => {
    const { order: orderChange, ...rest } = change;
    const body = {
      order: { ...newOrder(), ...(orderChange as object) },
      choice: 'write_now',
      language: 'nl',
      textVersion: 'v1',
      ...rest,
    };
    const { res, json } = await post(`/embed/${shop.id}/consent`, body);
    expect(res.status).toBe(400);
    expect(json.error.code).toBe('bad_request');
  });

  it('answers 400 for a body that is not JSON and 413 above 64 KB', async () => {
    expect((await post(`/embed/${shop.id}/consent`, '{nope')).res.status).toBe(400);
    const big = {
      order: newOrder({ firstName: 'x'.repeat(70_000) }),
      choice: 'write_now',
      language: 'nl',
      textVersion: 'v',
    };
    expect((await post(`/embed/${shop.id}/consent`, big)).res.status).toBe(413);
  });
});

describe('POST /embed/{id}/reviews', () => {
  it("publishes a signed order's review at once as verified, with its edit e-mail due after the invite delay", async () => {
    const trigger = vi.spyOn(t.services.scheduler, 'trigger');
    const order = newOrder({ inviteDelay: 4 });
    const { json: c } = await consent(order, 'write_now', sign(order));
    const receipt = await t.services.consents.get(shop.id, order.orderNumber);
    const { res, json } = await post(
      `/embed/${shop.id}/reviews`,
      review(c.reviewToken, { email: 'ignored@example.com' }),
    );
    expect(res.status).toBe(201);
    expect(json).toEqual({ status: 'published', id: expect.any(Number) });
    expect(trigger).toHaveBeenCalledWith('mail.reviews');
    trigger.mockRestore();

    const r = await stored(json.id);
    expect(r).toMatchObject({
      source: 'popup',
      verified: true,
      quarantine: false,
      published: true,
      email: 'jane@example.com',
      order: order.orderNumber,
      country: 'NL',
      language: 'nl',
      ratings: { shippingtime: 4, customerservice: 5, pricequality: 0, aftersale: 0 },
      confirmToken: null,
    });
    expect(r.editToken).toMatch(/^[A-Za-z0-9_-]{32,}$/);
    expect(r.editMailDue!.getTime()).toBe(receipt!.created.getTime() + 4 * DAY_MS);

    const listed = await (await t.fetch(`/embed/${shop.id}/reviews.json?limit=20`)).json();
    expect(listed.reviews.find((x: { id: number }) => x.id === json.id)).toMatchObject({
      verified: true,
      comment: 'Snel geleverd.',
    });
    const ratings = await (await t.fetch(withAuth('/api/1.0/ratings.json', shop))).json();
    expect(ratings.ratings.find((x: { id: number }) => x.id === json.id)).toMatchObject({
      quarantine: false,
      rating: 5,
    });
  });

  it('accepts a token once (403 after)', async () => {
    const order = newOrder();
    const { json: c } = await consent(order, 'write_now', sign(order));
    expect((await post(`/embed/${shop.id}/reviews`, review(c.reviewToken))).res.status).toBe(201);
    const again = await post(`/embed/${shop.id}/reviews`, review(c.reviewToken));
    expect(again.res.status).toBe(403);
    expect(again.json.error.code).toBe('forbidden');
  });

  it("answers 403 for an unknown token or another shop's token", async () => {
    expect((await post(`/embed/${shop.id}/reviews`, review('A'.repeat(32)))).res.status).toBe(403);
    const other = await t.createShop();
    const order = newOrder();
    const { json: c } = await consent(order, 'write_now', sign(order));
    expect((await post(`/embed/${other.id}/reviews`, review(c.reviewToken))).res.status).toBe(403);
  });

  it("holds an unsigned order's review back until confirmed, with a confirmation token", async () => {
    const order = newOrder();
    const { json: c } = await consent(order, 'write_now');
    const { res, json } = await post(`/embed/${shop.id}/reviews`, review(c.reviewToken));
    expect(res.status).toBe(201);
    expect(json.status).toBe('pending_confirmation');
    const r = await stored(json.id);
    expect(r).toMatchObject({
      quarantine: true,
      verified: false,
      published: false,
      editToken: null,
      editMailDue: null,
    });
    expect(r.confirmToken).toMatch(/^[A-Za-z0-9_-]{32,}$/);
    const listed = await (await t.fetch(`/embed/${shop.id}/reviews.json?limit=20`)).json();
    expect(listed.reviews.some((x: { id: number }) => x.id === json.id)).toBe(false);
  });

  it('asks for the e-mail address when the order data had none', async () => {
    const order = { webshopId: shop.id, orderNumber: `E-${++orderCounter}` };
    const { json: c } = await post(`/embed/${shop.id}/consent`, {
      order,
      choice: 'write_now',
      language: 'de',
      textVersion: 'v1',
    });
    const missing = await post(`/embed/${shop.id}/reviews`, review(c.reviewToken));
    expect(missing.res.status).toBe(400);
    expect(missing.json.error.message).toMatch(/^email/);
    const bad = await post(`/embed/${shop.id}/reviews`, review(c.reviewToken, { email: 'not-an-address' }));
    expect(bad.res.status).toBe(400);
    const ok = await post(`/embed/${shop.id}/reviews`, review(c.reviewToken, { email: 'Max@Example.DE' }));
    expect(ok.res.status).toBe(201);
    expect(await stored(ok.json.id)).toMatchObject({ email: 'Max@example.de', language: 'de' });
  });

  it.each([
    ['a rating of 6', { rating: 6 }],
    ['a sub-score of 7', { ratings: { aftersale: 7 } }],
    ['an empty name', { name: '  ' }],
    ['a name over 80 characters', { name: 'x'.repeat(81) }],
    ['a comment over 5000 characters', { comment: 'x'.repeat(5001) }],
    ['a three-letter country', { country: 'NLD' }],
    ['a token that is not a string', { reviewToken: { $ne: '' } }],
  ])('answers 400 for %s, and the token still works afterwards', async (_name, change) => {
    const order = newOrder();
    const { json: c } = await consent(order, 'write_now', sign(order));
    expect((await post(`/embed/${shop.id}/reviews`, review(c.reviewToken, change))).res.status).toBe(400);
    expect((await post(`/embed/${shop.id}/reviews`, review(c.reviewToken))).res.status).toBe(201);
  });
});

describe("releasing an unsigned pop-up review by the shop's Add invitation", () => {
  async function unsignedReview(email = 'jane@example.com') {
    const order = newOrder({ email });
    const { json: c } = await consent(order, 'write_now');
    const { json } = await post(`/embed/${shop.id}/reviews`, review(c.reviewToken));
    return { order, id: json.id as number };
  }

  it('publishes it as verified when the shop invites the same address for that order, and queues nothing', async () => {
    const { order, id } = await unsignedReview('Jane@Example.com');
    const message = await addInvitation({ email: 'jane@example.com', order: order.orderNumber });
    expect(message).toBe('No invitation queued: the customer already wrote a review for this order.');
    const r = await stored(id);
    expect(r).toMatchObject({ quarantine: false, verified: true, published: true, confirmToken: null });
    expect(r.editToken).toMatch(/^[A-Za-z0-9_-]{32,}$/);
    expect(r.editMailDue).toBeInstanceOf(Date);
    expect(
      await t.db.collection<Invitation>('invitations').countDocuments({ shopId: shop.id, order: order.orderNumber }),
    ).toBe(0);
  });

  it('leaves it waiting when the shop invites another address, and queues that invitation', async () => {
    const { order, id } = await unsignedReview('eve@example.com');
    const message = await addInvitation({ email: 'jane@example.com', order: order.orderNumber });
    expect(message).toBe('Invitation successfully added to queue!');
    expect(await stored(id)).toMatchObject({ quarantine: true, verified: false, published: false });
  });
});

describe('Add invitation after the pop-up', () => {
  it('answers the already-written message after a signed Write now review', async () => {
    const order = newOrder();
    const { json: c } = await consent(order, 'write_now', sign(order));
    await post(`/embed/${shop.id}/reviews`, review(c.reviewToken));
    expect(await addInvitation({ email: 'jane@example.com', order: order.orderNumber, delay: '0' })).toBe(
      'No invitation queued: the customer already wrote a review for this order.',
    );
  });

  it('schedules an Ask me later invitation no earlier than inviteDelay days after the choice', async () => {
    const order = newOrder({ inviteDelay: 6 });
    await consent(order, 'ask_later', sign(order));
    const receipt = await t.services.consents.get(shop.id, order.orderNumber);
    expect(await addInvitation({ email: 'jane@example.com', order: order.orderNumber, delay: '1' })).toBe(
      'Invitation successfully added to queue!',
    );
    const invitation = await t.db
      .collection<Invitation>('invitations')
      .findOne({ shopId: shop.id, order: order.orderNumber });
    expect(invitation!.scheduled.getTime()).toBe(receipt!.created.getTime() + 6 * DAY_MS);
  });
});

describe('POST /embed/{id}/experiences (serviceAddReview)', () => {
  const experience = (extra: Record<string, unknown> = {}) => ({
    rating: 4,
    comment: 'Goede service',
    name: 'Piet',
    email: 'piet@example.com',
    country: 'be',
    language: 'nl',
    website: '',
    ...extra,
  });

  it('stores it quarantined and unverified, with a confirmation token, and answers 202', async () => {
    const trigger = vi.spyOn(t.services.scheduler, 'trigger');
    const { res, json } = await post(`/embed/${shop.id}/experiences`, experience({ email: 'first@example.com' }));
    expect(res.status).toBe(202);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(json).toEqual({ status: 'pending_confirmation' });
    expect(trigger).toHaveBeenCalledWith('mail.reviews');
    trigger.mockRestore();
    const r = await t.db.collection<Review>('reviews').findOne({ shopId: shop.id, email: 'first@example.com' });
    expect(r).toMatchObject({
      source: 'form',
      verified: false,
      quarantine: true,
      published: false,
      country: 'BE',
      order: '',
    });
    expect(r!.confirmToken).toMatch(/^[A-Za-z0-9_-]{32,}$/);
  });

  it('answers a filled honeypot as if accepted, and stores nothing', async () => {
    const { res, json } = await post(
      `/embed/${shop.id}/experiences`,
      experience({ email: 'bot@example.com', website: 'http://spam.example' }),
    );
    expect(res.status).toBe(202);
    expect(json).toEqual({ status: 'pending_confirmation' });
    expect(await t.db.collection('reviews').countDocuments({ email: 'bot@example.com' })).toBe(0);
  });

  it('answers 400 for bad input', async () => {
    expect((await post(`/embed/${shop.id}/experiences`, experience({ email: 'nope' }))).res.status).toBe(400);
    expect((await post(`/embed/${shop.id}/experiences`, experience({ rating: 0 }))).res.status).toBe(400);
  });

  it('limits one client address to 5 an hour (429 with Retry-After)', async () => {
    const ip = freshIp();
    for (let i = 0; i < 5; i++) {
      expect(
        (await post(`/embed/${shop.id}/experiences`, experience({ email: `p${i}@example.com` }), ip)).res.status,
      ).toBe(202);
    }
    const { res, json } = await post(`/embed/${shop.id}/experiences`, experience({ email: 'p9@example.com' }), ip);
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(60);
    expect(json.error.code).toBe('too_many_requests');
  });

  it('limits one e-mail address to 3 an hour, whatever the client address', async () => {
    for (let i = 0; i < 3; i++)
      expect((await post(`/embed/${shop.id}/experiences`, experience({ email: 'same@example.com' }))).res.status).toBe(
        202,
      );
    expect((await post(`/embed/${shop.id}/experiences`, experience({ email: 'Same@Example.com' }))).res.status).toBe(
      429,
    );
  });
});

describe('rate limit of the pop-up calls', () => {
  it('answers 429 after 30 calls a minute from one address', async () => {
    const ip = freshIp();
    const order = newOrder();
    for (let i = 0; i < 30; i++) {
      expect((await post(`/embed/${shop.id}/order/verify`, { order, signature: sign(order) }, ip)).res.status).toBe(
        200,
      );
    }
    expect((await post(`/embed/${shop.id}/order/verify`, { order, signature: sign(order) }, ip)).res.status).toBe(429);
  });
});
