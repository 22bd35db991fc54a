// The route table (server/routes.ts): each group of paths answers in its own envelope and with its own CORS, also
// where no route matches and when the per-address limit refuses.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../test/harness.js';
import { signedInAgent } from './accounts/test-session.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ TRUST_PROXY: 'true', RATE_LIMIT_PER_IP: '3' });
});
afterAll(() => t.close());

/** Each test is its own client, so the per-address limit of one does not reach the next. */
let client = 0;
const from = () => {
  const ip = `198.51.100.${++client}`;
  return (path: string, init: RequestInit = {}) =>
    t.fetch(path, { ...init, headers: { ...(init.headers as Record<string, string>), 'x-forwarded-for': ip } });
};

describe('paths no route matches', () => {
  it('answer in the envelope of their group', async () => {
    const get = from();
    const api = await get('/api/1.0/nothing.json');
    expect(api.status).toBe(404);
    expect(await api.json()).toEqual({ status: 'error', message: 'Not found.' });

    const embed = await get('/embed/nothing');
    expect(embed.status).toBe(404);
    expect(embed.headers.get('access-control-allow-origin')).toBe('*');
    expect(await embed.json()).toEqual({ error: { code: 'not_found', message: 'Not found.' } });
  });
});

describe('CORS', () => {
  it('lets any page read the rich snippet, with GET only, and no other public JSON', async () => {
    const get = from();
    const shop = await t.createShop();
    const snippet = await get(`/webshops/rich_snippet?id=${shop.id}`, { headers: { origin: 'https://shop.example' } });
    expect(snippet.status).toBe(200);
    expect(snippet.headers.get('access-control-allow-origin')).toBe('*');
    const preflight = await get('/webshops/rich_snippet', {
      method: 'OPTIONS',
      headers: { origin: 'https://shop.example', 'access-control-request-method': 'GET' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-methods')).toBe('GET');

    const health = await get('/healthz', { headers: { origin: 'https://shop.example' } });
    expect(health.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('keeps the embed limit readable cross-site: the 429 carries CORS, Retry-After and the embed envelope', async () => {
    const get = from();
    const shop = await t.createShop();
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < 4; i++) {
      last = await get(`/embed/${shop.id}/shop.json`, { headers: { origin: 'https://shop.example' } });
      statuses.push(last.status);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect(last!.headers.get('access-control-allow-origin')).toBe('*');
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await last!.json()).toEqual({
      error: { code: 'too_many_requests', message: 'Too many requests. Please try again later.' },
    });
  });
});

describe('the XML feed', () => {
  it('answers errors in XML, from the route table and from classic()', async () => {
    const get = from();
    const missing = await get('/api/1.0/product_reviews.xml');
    expect(missing.status).toBe(200);
    expect(missing.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    expect(await missing.text()).toContain(
      '<status>error</status><message>Not all obligated variables are set.</message>',
    );

    const unknown = await get('/api/1.0/nothing.xml');
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain('<status>error</status><message>Not found.</message>');
  });
});

// The router matches paths whatever their case (@koa/router's default): so must the groups, or `/Dashboard/api/…`
// would reach its route without the group's guard, envelope or CORS.
describe('groups match paths whatever their case, as the router does', () => {
  it('the dashboard API: its session guard, and Origin and CSRF token on writes', async () => {
    const shop = await t.createShop();
    const agent = await signedInAgent(t, { email: 'cased@shop.example', shopId: shop.id, role: 'owner' });
    const me = await from()('/Dashboard/API/me', { headers: { cookie: agent.cookie } });
    expect(me.status).toBe(200);
    expect(me.headers.get('cache-control')).toBe('no-store');
    // A write with the cookie alone: the group's CSRF check answers, not the route's "no session".
    const signOut = await from()('/DASHBOARD/api/sign-out', { method: 'POST', headers: { cookie: agent.cookie } });
    expect(signOut.status).toBe(403);
    expect((await signOut.json()).error.code).toBe('csrf');
    const team = await from()(`/dashboard/Api/shops/${shop.id}/users`, {
      method: 'POST',
      headers: { cookie: agent.cookie },
    });
    expect(team.status).toBe(403);
    expect((await team.json()).error.code).toBe('csrf');
    const withToken = await from()('/Dashboard/Api/Sign-Out', { method: 'POST', headers: agent.headers });
    expect(withToken.status).toBe(204);
    // The one public path stays public in any case.
    const ask = await from()('/Dashboard/API/Sign-In-Link', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'someone@shop.example' }),
    });
    expect(ask.status).toBe(202);
  });

  it('the dashboard pages: never framed', async () => {
    const page = await from()(`/DASHBOARD/Sign-In/${'A'.repeat(43)}`);
    expect(page.status).toBe(404);
    expect(page.headers.get('x-frame-options')).toBe('DENY');
  });

  it('the operator API, the classic API, the XML feed, the embed, the rich snippet and the pages', async () => {
    const shop = await t.createShop();
    const admin = await from()('/ADMIN/api/Audit');
    expect(admin.status).toBe(401);
    expect((await admin.json()).error.code).toBe('unauthorized');

    expect(await (await from()('/API/1.0/nothing.json')).json()).toEqual({ status: 'error', message: 'Not found.' });
    expect(await (await from()('/Api/1.0/Product_Reviews.XML')).text()).toContain('<status>error</status>');

    const embed = await from()(`/Embed/${shop.id}/shop.json`, { headers: { origin: 'https://shop.example' } });
    expect(embed.status).toBe(200);
    expect(embed.headers.get('access-control-allow-origin')).toBe('*');
    const snippet = await from()(`/WebShops/Rich_Snippet?id=${shop.id}`, {
      headers: { origin: 'https://shop.example' },
    });
    expect(snippet.status).toBe(200);
    expect(snippet.headers.get('access-control-allow-origin')).toBe('*');

    // The pages group answers its errors as a page, here the per-address limit's 429.
    const get = from();
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < 4; i++) {
      last = await get(`/REVIEW/${'A'.repeat(43)}`);
      statuses.push(last.status);
    }
    expect(statuses.at(-1)).toBe(429);
    expect(last!.headers.get('content-type')).toMatch(/^text\/html/);
  });
});
