// Request bodies over HTTP: the caps answer 413 in each endpoint's envelope, and Add invitation checks credentials in
// the query before it reads a body. That the service stays responsive meanwhile: healthz-under-load.alone.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BODY_CAPS } from '../server/http/body.js';
import { startTestApp, withAuth, type TestApp } from './harness.js';

const INVITATIONS = '/api/1.0/invitations.json';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
/** One field more than the cap, in an ordinary-looking form. */
const tooManyFields = Array.from({ length: BODY_CAPS.fields + 1 }, () => 'f=1').join('&');
const FIELDS_MESSAGE = `The request body has more than ${BODY_CAPS.fields} fields (values and nested objects together).`;
const tooDeep = `{"a":${'['.repeat(BODY_CAPS.depth)}${']'.repeat(BODY_CAPS.depth)}}`;

describe('body caps answer 413 in the endpoint envelope', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('classic: {status:"error"} with the message', async () => {
    const shop = await t.createShop();
    const res = await t.fetch(withAuth(INVITATIONS, shop), { method: 'POST', headers: FORM, body: tooManyFields });
    expect(res.status).toBe(413);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await res.json()).toEqual({ status: 'error', message: FIELDS_MESSAGE });
  });

  it('operator and public JSON: {error:{code:"payload_too_large"}}', async () => {
    const shop = await t.createShop();
    const admin = await t.admin('/admin/api/webshops', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: tooDeep,
    });
    const embed = await t.fetch(`/embed/${shop.id}/order/verify`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: tooDeep,
    });
    for (const res of [admin, embed]) {
      expect(res.status).toBe(413);
      expect(await res.json()).toEqual({
        error: {
          code: 'payload_too_large',
          message: `The request body is nested more than ${BODY_CAPS.depth} levels deep.`,
        },
      });
    }
  });

  it('review page: a small HTML page', async () => {
    const shop = await t.createShop();
    const queued = await t.fetch(withAuth(INVITATIONS, shop), {
      method: 'POST',
      headers: FORM,
      body: 'email=jane%40example.com&order=1',
    });
    expect((await queued.json()).status).toBe('success');
    const invitation = await t.db.collection<{ token: string }>('invitations').findOne({ shopId: shop.id });
    const res = await t.fetch(`/review/${invitation!.token}`, { method: 'POST', headers: FORM, body: tooManyFields });
    expect(res.status).toBe(413);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await res.text()).toContain(`<p>${FIELDS_MESSAGE}</p>`);
  });
});

describe('Add invitation with credentials in the query', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_PER_SHOP: '2' });
  });
  afterAll(() => t.close());

  it('answers wrong credentials without reading the body', async () => {
    const shop = await t.createShop();
    const res = await t.fetch(withAuth(INVITATIONS, { id: shop.id, code: 'wrong' }), {
      method: 'POST',
      headers: FORM,
      body: tooManyFields,
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'error', message: 'Incorrect authentication credentials.' });
  });

  it('applies the per-shop limit before reading the body', async () => {
    const shop = await t.createShop();
    const post = () => t.fetch(withAuth(INVITATIONS, shop), { method: 'POST', headers: FORM, body: tooManyFields });
    expect((await post()).status).toBe(413);
    expect((await post()).status).toBe(413);
    const limited = await post();
    expect(limited.status).toBe(429);
    expect(await limited.json()).toEqual({ status: 'error', message: 'Too many requests. Please try again later.' });
  });

  it('still accepts credentials in the body (then the capped parser runs first)', async () => {
    const shop = await t.createShop();
    const fields = new URLSearchParams({
      id: String(shop.id),
      code: shop.code,
      email: 'jane@example.com',
      order: 'B-1',
    });
    const res = await t.fetch(INVITATIONS, { method: 'POST', headers: FORM, body: fields.toString() });
    expect(await res.json()).toEqual({ status: 'success', message: 'Invitation successfully added to queue!' });
    const over = await t.fetch(INVITATIONS, {
      method: 'POST',
      headers: FORM,
      body: `${fields.toString()}&${tooManyFields}`,
    });
    expect(over.status).toBe(413);
  });

  it('takes body credentials when the query has only one of id and code', async () => {
    const shop = await t.createShop();
    const res = await t.fetch(`${INVITATIONS}?id=${shop.id}`, {
      method: 'POST',
      headers: FORM,
      body: new URLSearchParams({ code: shop.code, email: 'jane@example.com', order: 'B-2' }).toString(),
    });
    expect(await res.json()).toEqual({ status: 'success', message: 'Invitation successfully added to queue!' });
  });
});
