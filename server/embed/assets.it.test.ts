// The embed's static files as a shop's page gets them: /sidebar.js with any cache-buster, compressed, cacheable,
// with the configured brand; the app and one language's strings under a versioned path.
import { gunzipSync, brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { ensureEmbedBuilt } from '../../embed/test/build.js';

let app: TestApp;
let branded: TestApp;

beforeAll(async () => {
  await ensureEmbedBuilt();
  [app, branded] = await Promise.all([startTestApp(), startTestApp({ BRAND: 'acme', BRAND_NAME: 'Acme "Reviews"' })]);
}, 120_000);
afterAll(async () => {
  await Promise.all([app?.close(), branded?.close()]);
});

/** Node's fetch decompresses by itself; this asks for one encoding and reads the raw bytes. */
async function raw(target: TestApp, path: string, encoding: string, headers: Record<string, string> = {}) {
  const { request } = await import('node:http');
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>(
    (ok, fail) => {
      const req = request(target.url + path, { headers: { 'accept-encoding': encoding, ...headers } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => ok({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      });
      req.on('error', fail);
      req.end();
    },
  );
}

describe('GET /sidebar.js', () => {
  it('serves the loader as JavaScript with a charset, cacheable for the 10-minute cache-buster window', async () => {
    const res = await app.fetch('/sidebar.js?id=1&c=2892888');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('public, max-age=600');
    expect(res.headers.get('etag')).toMatch(/^"[\w-]+"$/);
    expect(res.headers.get('vary')).toBe('Accept-Encoding');
    const body = await res.text();
    expect(body).toContain('`service`');
    expect(body).not.toMatch(/__BRAND|__ASSETS__/);
    expect(body).toMatch(/embed\/assets\/[0-9a-f]{12}/);
  });

  it('accepts any c (one plugin uses another formula) and ignores unknown parameters', async () => {
    const a = await app.fetch('/sidebar.js?id=1&c=2892888');
    for (const query of ['?id=1&c=abc', '?id=1&c=-5&foo=bar', '?id=1', '']) {
      const res = await app.fetch(`/sidebar.js${query}`);
      expect(res.status, query).toBe(200);
      expect(res.headers.get('etag')).toBe(a.headers.get('etag'));
    }
  });

  it('is compressed with brotli or gzip as the client accepts, and identical once decompressed', async () => {
    const plain = await raw(app, '/sidebar.js?id=1', 'identity');
    const br = await raw(app, '/sidebar.js?id=1', 'gzip, deflate, br');
    const gz = await raw(app, '/sidebar.js?id=1', 'gzip');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(br.headers['content-encoding']).toBe('br');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
    expect(gunzipSync(gz.body).equals(plain.body)).toBe(true);
    expect(br.body.length).toBeLessThan(plain.body.length);
  });

  it('answers 304 to a matching If-None-Match', async () => {
    const first = await app.fetch('/sidebar.js?id=1');
    const again = await raw(app, '/sidebar.js?id=1', 'gzip', { 'if-none-match': first.headers.get('etag')! });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
  });

  it('uses the configured BRAND word and BRAND_NAME, the name safely escaped', async () => {
    const body = await (await branded.fetch('/sidebar.js?id=1')).text();
    expect(body).toContain('acme');
    expect(body).toContain('Acme');
    expect(body).not.toContain('service');
    expect(body).toContain('Acme \\u0022Reviews\\u0022');
  });
});

describe('the app and its strings', () => {
  async function version() {
    const body = await (await app.fetch('/sidebar.js')).text();
    return /embed\/assets\/([0-9a-f]{12})/.exec(body)![1]!;
  }

  it('serves the app under its version for a year, readable from other origins', async () => {
    const res = await app.fetch(`/embed/assets/${await version()}/app.js`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('set-cookie')).toBeNull();
  });

  it('serves the product block under the versioned path, for a year, readable from other origins', async () => {
    const res = await app.fetch(`/embed/assets/${await version()}/product.js`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(await res.text()).toContain('products/reviews.html');
  });

  it('serves an old version the current files, cached briefly', async () => {
    const res = await app.fetch('/embed/assets/000000000000/app.js');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=600');
  });

  it('serves the strings of one language as JSON, and 404 for a language we do not have', async () => {
    const v = await version();
    const de = await app.fetch(`/embed/assets/${v}/strings/de.json`);
    expect(de.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(((await de.json()) as Record<string, string>).writeNow).toBe('Jetzt bewerten');
    for (const bad of ['pt.json', 'de.js', '..%2Fapp.js', 'DE.json']) {
      const res = await app.fetch(`/embed/assets/${v}/strings/${bad}`);
      expect(res.status, bad).toBe(404);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('not_found');
    }
  });
});

describe('the demo pages (outside production)', () => {
  it('serves the host pages with the spec snippet pointing at this service and the demo shop', async () => {
    const { createDemoShop } = await import('../webshops/demo.js');
    const shop = await createDemoShop(app.services);
    const index = await app.fetch('/demo/');
    expect(index.status).toBe(200);
    expect(await index.text()).toContain('thankyou.html?shape=signed');
    const page = await (await app.fetch('/demo/shop.html?_service_sidebar_theme=light')).text();
    expect(page).toContain(`var id = ${shop.id};`);
    expect(page).toContain(
      `"${app.url}" + '/sidebar.js?id=' + id + '&c=' + Math.floor((Date.now() + Math.sin(id) * 600000) / 600000)`,
    );
    expect(page).toContain('window._service_sidebar_theme = "light";');
    expect(page).toContain('class="Service"');
  });

  it('prints the order element in the shape asked for, signed with the shop code', async () => {
    const { orderSignature } = await import('../consents/signature.js');
    const { findDemoShop } = await import('../webshops/demo.js');
    const shop = (await findDemoShop(app.services))!;
    const signed = await (
      await app.fetch('/demo/thankyou.html?shape=signed&order=A-1&email=a@example.com&name=Ann&delay=2')
    ).text();
    const fields = { webshopId: shop.id, orderNumber: 'A-1', email: 'a@example.com', firstName: 'Ann', inviteDelay: 2 };
    expect(signed).toContain(`"signature": "${orderSignature(fields, shop.id, shop.code)}"`);
    const escaped = await (await app.fetch('/demo/thankyou.html?shape=escaped&order=A-2')).text();
    expect(escaped).toContain('{&quot;webshopId&quot;:');
  });

  it('serves the strict-CSP page with its policy, and nothing in production', async () => {
    const csp = await app.fetch('/demo/csp.html');
    expect(csp.headers.get('content-security-policy')).toContain(`script-src 'self' ${app.url}`);
    const { default: Router } = await import('@koa/router');
    const { registerEmbedDemoRoutes } = await import('./routes.js');
    const router = new Router();
    registerEmbedDemoRoutes(router, { ...app.services, config: { ...app.services.config, production: true } });
    expect(router.stack).toHaveLength(0);
  });
});
