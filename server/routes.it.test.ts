// The route table (server/routes.ts): each group of paths answers in its own envelope and with its own CORS, also
// where no route matches and when the per-address limit refuses.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../test/harness.js';

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
    expect(await last!.json()).toEqual({ error: { code: 'too_many_requests', message: 'Too many requests. Please try again later.' } });
  });
});

describe('the XML feed', () => {
  it('answers errors in XML, from the route table and from classic()', async () => {
    const get = from();
    const missing = await get('/api/1.0/product_reviews.xml');
    expect(missing.status).toBe(200);
    expect(missing.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    expect(await missing.text()).toContain('<status>error</status><message>Not all obligated variables are set.</message>');

    const unknown = await get('/api/1.0/nothing.xml');
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain('<status>error</status><message>Not found.</message>');
  });
});
