import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness.js';
import type { Webshop } from '../webshops/store.js';
import { sha256Hex } from '../hash.js';
import type { DomainToken } from './token-store.js';

let t: TestApp;
let token: string;
let shop: Webshop;

beforeAll(async () => {
  t = await startTestApp();
  const res = await t.admin('/admin/api/tokens', { method: 'POST', json: { label: 'Partner A' } });
  token = (await res.json()).token;
  shop = await t.createShop({
    name: 'Shop Example',
    url: 'https://www.shop.example/nl/',
    logo: 'https://cdn.example/logo.png',
    hero_color: '#1a7f37',
    hero_image: 'https://cdn.example/hero.jpg',
    approved_date: '2024-03-01',
    partner_assurances: { thuiswinkel: true, safeshops: false },
  });
  for (const rating of [5, 4]) {
    await t.services.reviews.create(shop.id, { name: 'R', email: 'r@example.com', rating, language: 'en' });
  }
  // Not published: left out of rating and rating_count.
  await t.services.reviews.create(shop.id, {
    name: 'Q',
    email: 'q@example.com',
    rating: 1,
    language: 'en',
    quarantine: true,
  });
});
afterAll(() => t.close());

const fetchDomain = (query: Record<string, string>) =>
  t.fetch(`/webshops/fetch_domain.json?${new URLSearchParams(query)}`);

describe('GET /webshops/fetch_domain.json', () => {
  it('returns the domain record of the shop at the URL', async () => {
    const res = await fetchDomain({ token, url: 'shop.example' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await res.json()).toEqual([
      {
        id: shop.id,
        name: 'Shop Example',
        url: 'https://www.shop.example/nl/',
        rating: 9,
        rating_count: 2,
        icon: 'https://cdn.example/logo.png',
        page: `http://127.0.0.1:1/webshops/${shop.id}`,
        hero_color: '#1a7f37',
        hero_image: 'https://cdn.example/hero.jpg',
        created: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
      },
    ]);
  });

  it.each([
    'HTTPS://WWW.Shop.example:8443/path?q',
    'http://shop.example',
    'www.shop.example/other/page',
    'Shop.Example.',
    '  https://shop.example/  ',
  ])('matches %s by host, ignoring scheme, www., port, path and case', async (url) => {
    const res = await fetchDomain({ token, url });
    expect((await res.json()).map((d: { id: number }) => d.id)).toEqual([shop.id]);
  });

  it('answers an empty array when no shop has the host', async () => {
    for (const url of ['https://other.example', 'https://sub.shop.example', 'https://shop.example.evil']) {
      const res = await fetchDomain({ token, url });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual([]);
    }
  });

  it('adds approved_date and partner_assurances only when asked with a true value', async () => {
    const [both] = await (
      await fetchDomain({ token, url: 'shop.example', approved_date: '1', partner_assurances: 'true' })
    ).json();
    expect(both.approved_date).toBe('2024-03-01');
    expect(both.partner_assurances).toEqual({ thuiswinkel: true, safeshops: false });
    const [yes] = await (await fetchDomain({ token, url: 'shop.example', approved_date: 'YES' })).json();
    expect(yes.approved_date).toBe('2024-03-01');
    expect(yes).not.toHaveProperty('partner_assurances');
    for (const off of ['0', 'false', 'no', '']) {
      const [record] = await (
        await fetchDomain({ token, url: 'shop.example', approved_date: off, partner_assurances: off })
      ).json();
      expect(record).not.toHaveProperty('approved_date');
      expect(record).not.toHaveProperty('partner_assurances');
    }
  });

  it('leaves approved_date out for a shop that was never approved, even when asked', async () => {
    const unapproved = await t.createShop({ url: 'https://unapproved.example' });
    const [record] = await (
      await fetchDomain({ token, url: 'unapproved.example', approved_date: '1', partner_assurances: '1' })
    ).json();
    expect(record.id).toBe(unapproved.id);
    expect(record).not.toHaveProperty('approved_date');
    expect(record.partner_assurances).toEqual({});
    expect(record).toMatchObject({ rating: 0, rating_count: 0, icon: '', hero_color: '', hero_image: '' });
  });

  it('returns every shop on the same host', async () => {
    const a = await t.createShop({ url: 'https://twins.example/nl' });
    const b = await t.createShop({ url: 'http://www.twins.example/de' });
    const records = await (await fetchDomain({ token, url: 'twins.example' })).json();
    expect(records.map((d: { id: number }) => d.id)).toEqual([a.id, b.id]);
  });

  it('follows a shop that moves to another URL at once', async () => {
    const moving = await t.createShop({ url: 'https://old-home.example' });
    expect(await (await fetchDomain({ token, url: 'old-home.example' })).json()).toHaveLength(1);
    const patch = await t.admin(`/admin/api/webshops/${moving.id}`, {
      method: 'PATCH',
      json: { url: 'https://new-home.example' },
    });
    expect(patch.status).toBe(200);
    expect(await (await fetchDomain({ token, url: 'old-home.example' })).json()).toEqual([]);
  });

  describe('errors', () => {
    const unauthorized = { error: { code: 'unauthorized', message: expect.any(String) } };

    it.each([
      ['no token', () => ({ url: 'shop.example' })],
      ['an empty token', () => ({ token: '', url: 'shop.example' })],
      ['an unknown token', () => ({ token: 'a'.repeat(64), url: 'shop.example' })],
      ['the hash of a token instead of the token', () => ({ token: sha256Hex(token), url: 'shop.example' })],
    ])('answers 401 for %s', async (_name, query) => {
      const res = await fetchDomain(query());
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual(unauthorized);
    });

    it('answers 401 for a token given as an array or operator object', async () => {
      for (const q of [`token=${token}&token=${token}&url=shop.example`, `token[$ne]=x&url=shop.example`]) {
        const res = await t.fetch(`/webshops/fetch_domain.json?${q}`);
        expect(res.status).toBe(401);
        expect(await res.json()).toEqual(unauthorized);
      }
    });

    it.each([
      ['no url', () => ({ token })],
      ['an empty url', () => ({ token, url: '' })],
      ['a url without a host', () => ({ token, url: 'https://' })],
      ['a url that is too long', () => ({ token, url: `https://shop.example/${'a'.repeat(2000)}` })],
    ])('answers 400 for %s', async (_name, query) => {
      const res = await fetchDomain(query());
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ error: { code: 'bad_request', message: expect.stringMatching(/url/) } });
    });

    it('answers 400 for a url given twice or as an operator object', async () => {
      for (const q of [`url=a.example&url=b.example`, `url[$ne]=x`]) {
        const res = await t.fetch(`/webshops/fetch_domain.json?token=${token}&${q}`);
        expect(res.status).toBe(400);
        expect((await res.json()).error.code).toBe('bad_request');
      }
    });
  });
});

describe('operator API: domain tokens', () => {
  it('issues a 256-bit hex token and stores only its hash', async () => {
    const res = await t.admin('/admin/api/tokens', { method: 'POST' });
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body).toEqual({ token: expect.stringMatching(/^[0-9a-f]{64}$/) });
    // What a copy of the database holds.
    const stored = await t.db.collection<DomainToken>('domain_tokens').find({}).toArray();
    expect(stored.some((d) => JSON.stringify(d).includes(body.token))).toBe(false);
    expect(stored.some((d) => d.hash === sha256Hex(body.token))).toBe(true);
    const labelled = stored.find((d) => d.hash === sha256Hex(token));
    expect(labelled?.label).toBe('Partner A');
  });

  it('revokes a token: it stops working at once and a second revocation is 404', async () => {
    const issued = (await (await t.admin('/admin/api/tokens', { method: 'POST', json: { label: 'Temporary' } })).json())
      .token;
    expect((await fetchDomain({ token: issued, url: 'shop.example' })).status).toBe(200);
    // Now cached as valid: the revocation must still be seen by the next request.
    const del = await t.admin(`/admin/api/tokens/${issued}`, { method: 'DELETE' });
    expect(del.status).toBe(204);
    expect((await fetchDomain({ token: issued, url: 'shop.example' })).status).toBe(401);
    const again = await t.admin(`/admin/api/tokens/${issued}`, { method: 'DELETE' });
    expect(again.status).toBe(404);
    expect(await again.json()).toEqual({ error: { code: 'not_found', message: 'No such token.' } });
    // Other tokens keep working.
    expect((await fetchDomain({ token, url: 'shop.example' })).status).toBe(200);
  });

  it('validates the label with a 422', async () => {
    for (const json of [{ label: 42 }, { label: 'x'.repeat(201) }, { other: 'x' }]) {
      const res = await t.admin('/admin/api/tokens', { method: 'POST', json });
      expect(res.status).toBe(422);
      expect((await res.json()).error.code).toBe('validation_failed');
    }
  });

  it('requires the operator token', async () => {
    const post = await t.fetch('/admin/api/tokens', { method: 'POST' });
    expect(post.status).toBe(401);
    const del = await t.fetch(`/admin/api/tokens/${token}`, { method: 'DELETE' });
    expect(del.status).toBe(401);
    expect((await fetchDomain({ token, url: 'shop.example' })).status).toBe(200);
  });
});
