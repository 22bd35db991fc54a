import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, withAuth, type TestApp } from '../../test/harness.js';
import type { Webshop } from './store.js';

let t: TestApp;
let shop: Webshop;
beforeAll(async () => {
  t = await startTestApp();
  shop = await t.createShop({ name: 'Fiets & Co', url: 'https://www.fiets.example/nl/' });
});
afterAll(() => t.close());

describe('GET /api/1.0/webshop.json', () => {
  it('returns every field of the webshop details', async () => {
    const res = await t.fetch(withAuth('/api/1.0/webshop.json', shop));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await res.json()).toEqual({
      status: 'success',
      message: 'Webshop details successfully retrieved!',
      data: {
        name: 'Fiets & Co',
        address: { street: '', housenumber: '', postalcode: '', city: '', country: '' },
        logo: '',
        languages: [{ name: 'English', url: 'https://www.fiets.example/nl/', iso: 'en', all: false, main: true }],
      },
    });
  });

  it.each([
    ['no id', { code: 'x' }],
    ['no code', { id: '1' }],
    ['nothing', {}],
  ])('answers the missing-variables message with %s', async (_name, query) => {
    const res = await t.fetch(`/api/1.0/webshop.json?${new URLSearchParams(query as Record<string, string>)}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'error', message: 'Not all obligated variables are set.', data: [] });
  });

  it.each([
    ['a wrong code', () => ({ id: String(shop.id), code: 'f'.repeat(32) })],
    ['an unknown shop', () => ({ id: '999999', code: shop.code })],
    ['a non-numeric id', () => ({ id: 'abc', code: shop.code })],
  ])('answers the wrong-credentials message for %s', async (_name, query) => {
    const res = await t.fetch(`/api/1.0/webshop.json?${new URLSearchParams(query())}`);
    expect(await res.json()).toEqual({ status: 'error', message: 'Incorrect authentication credentials.', data: [] });
  });

  it('treats operator injection in the query as wrong credentials, not a query', async () => {
    const res = await t.fetch(`/api/1.0/webshop.json?id=${shop.id}&code[$ne]=x`);
    expect(res.status).toBe(200);
    expect((await res.json()).status).toBe('error');
    const res2 = await t.fetch(`/api/1.0/webshop.json?id[$gt]=0&code=${shop.code}`);
    expect((await res2.json()).message).toBe('Not all obligated variables are set.');
  });

  it('accepts a leading-zero id', async () => {
    const res = await t.fetch(`/api/1.0/webshop.json?id=00${shop.id}&code=${shop.code}`);
    expect((await res.json()).status).toBe('success');
  });
});

describe('operator API: webshops', () => {
  it('creates a shop with an integer id and a hex code, and reads it back', async () => {
    const res = await t.admin('/admin/api/webshops', {
      method: 'POST',
      json: { name: 'Boeken BV', url: 'https://boeken.example', languages: [{ iso: 'nl' }, { iso: 'en' }] },
    });
    expect(res.status).toBe(201);
    const created = await res.json();
    expect(Number.isInteger(created.id)).toBe(true);
    expect(created.code).toMatch(/^[a-f0-9]{32}$/);
    expect(created.languages[0]).toMatchObject({ iso: 'nl', main: true, name: 'Nederlands' });
    const read = await t.admin(`/admin/api/webshops/${created.id}`);
    expect((await read.json()).name).toBe('Boeken BV');
  });

  it('refuses without the operator token', async () => {
    const res = await t.fetch('/admin/api/webshops/1');
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: { code: 'unauthorized', message: expect.any(String) } });
  });

  it('validates input with a 422 naming the field', async () => {
    const res = await t.admin('/admin/api/webshops', { method: 'POST', json: { name: 'X', url: 'ftp://x' } });
    expect(res.status).toBe(422);
    expect((await res.json()).error.message).toMatch(/^url:/);
  });

  it('patches settings and rotates the code (the old one stops working at once)', async () => {
    const s = await t.createShop();
    const patch = await t.admin(`/admin/api/webshops/${s.id}`, {
      method: 'PATCH',
      json: { reply_access: true, address: { city: 'Utrecht' }, sidebar: { theme: 'light' } },
    });
    expect(patch.status).toBe(200);
    expect(await patch.json()).toMatchObject({
      reply_access: true,
      address: { city: 'Utrecht', street: '' },
      sidebar: { theme: 'light' },
    });
    const rotated = await (await t.admin(`/admin/api/webshops/${s.id}/code`, { method: 'POST' })).json();
    expect(rotated.code).not.toBe(s.code);
    const old = await (await t.fetch(withAuth('/api/1.0/webshop.json', s))).json();
    expect(old.message).toBe('Incorrect authentication credentials.');
    const fresh = await (await t.fetch(withAuth('/api/1.0/webshop.json', { id: s.id, code: rotated.code }))).json();
    expect(fresh.status).toBe('success');
  });

  it('answers 404 for an unknown shop', async () => {
    expect((await t.admin('/admin/api/webshops/424242')).status).toBe(404);
    expect((await t.admin('/admin/api/webshops/abc')).status).toBe(404);
  });
});

describe('HTTP plumbing', () => {
  it('answers /healthz', async () => {
    const res = await t.fetch('/healthz');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  it('answers unknown routes with a 404 JSON body and wrong methods with 405', async () => {
    const res = await t.fetch('/api/1.0/nothing.json');
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ status: 'error' });
    const res2 = await t.fetch(withAuth('/api/1.0/webshop.json', shop), { method: 'DELETE' });
    expect(res2.status).toBe(405);
  });
});
