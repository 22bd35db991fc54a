// /demo/ in development: a page for the person at this machine, about the demo shop only. It signs order data with
// the demo shop's code and runs on the service's own origin (next to /dev/outbox), so it must neither sign for a
// real shop, nor answer anyone but a direct local request, nor reflect a query value as markup or script.
import { request } from 'node:http';
import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { orderSignature } from '../consents/signature.js';
import { createDemoShop } from '../webshops/demo.js';
import type { Webshop } from '../webshops/store.js';

let t: TestApp;
let real: Webshop;
let demo: Webshop;

beforeAll(async () => {
  t = await startTestApp({ NODE_ENV: 'development' });
  // A real shop first: the demo pages used to take "the first shop".
  real = await t.createShop({ name: 'Real Shop' });
  demo = await createDemoShop(t.services);
});
afterAll(() => t.close());

/** A raw request, so the Host header can be anything (fetch does not let a page choose it). */
function get(
  path: string,
  headers: Record<string, string> = {},
  host = '127.0.0.1',
): Promise<{ status: number; body: string }> {
  const { port } = new URL(t.url);
  return new Promise((ok, fail) => {
    const req = request({ host, port, path, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => ok({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', fail);
    req.end();
  });
}

describe('who may open /demo/', () => {
  it('answers a direct request from this machine', async () => {
    for (const path of ['/demo/', '/demo/shop.html', '/demo/snippet.js', '/demo/shop.css']) {
      expect((await get(path)).status, path).toBe(200);
    }
    expect((await get('/demo/', { host: `localhost:${new URL(t.url).port}` })).status).toBe(200);
  });

  it('does not answer through a proxy, even one on this machine', async () => {
    const proxied: Record<string, string>[] = [
      { 'x-forwarded-for': '203.0.113.9' },
      { forwarded: 'for=203.0.113.9' },
      { 'x-real-ip': '203.0.113.9' },
      { 'x-forwarded-host': 'reviews.example' },
      { via: '1.1 proxy' },
    ];
    for (const headers of proxied) {
      const res = await get('/demo/thankyou.html?shape=signed', headers);
      expect(res.status, JSON.stringify(headers)).toBe(404);
      expect(res.body).not.toContain('signature');
    }
  });

  it('does not answer a page of another site that reached this machine by DNS rebinding', async () => {
    const port = new URL(t.url).port;
    for (const host of [`evil.example:${port}`, `127.0.0.1.evil.example:${port}`, 'evil.example']) {
      expect((await get('/demo/', { host })).status, host).toBe(404);
    }
  });

  const outside = Object.values(networkInterfaces())
    .flat()
    .find((i) => i && i.family === 'IPv4' && !i.internal)?.address;

  it.runIf(outside)('does not answer a request from another address of the network', async () => {
    // The harness listens on 127.0.0.1 only: serve the same app on the machine's network address too.
    const { createServer } = await import('node:http');
    const server = createServer(t.app.callback());
    await new Promise<void>((ok) => server.listen(0, outside, ok));
    try {
      const port = (server.address() as { port: number }).port;
      const res = await new Promise<number>((ok, fail) =>
        request({ host: outside, port, path: '/demo/', headers: { host: `localhost:${port}` } }, (r) => {
          r.resume();
          ok(r.statusCode ?? 0);
        })
          .on('error', fail)
          .end(),
      );
      expect(res).toBe(404);
    } finally {
      server.closeAllConnections();
      await new Promise((ok) => server.close(ok));
    }
  });
});

describe('which shop /demo/ shows', () => {
  it('is always the demo shop: ?id= of a real shop neither names it nor signs with its code', async () => {
    const fields = { webshopId: real.id, orderNumber: 'A-1', email: 'a@example.com', firstName: 'Ann', inviteDelay: 2 };
    const res = await get(
      `/demo/thankyou.html?id=${real.id}&shape=signed&order=A-1&email=a@example.com&name=Ann&delay=2`,
    );
    expect(res.status).toBe(200);
    expect(res.body).not.toContain(orderSignature(fields, real.id, real.code));
    expect(res.body).not.toContain(`"webshopId": ${real.id},`);
    const own = { ...fields, webshopId: demo.id };
    expect(res.body).toContain(`"signature": "${orderSignature(own, demo.id, demo.code)}"`);
  });

  it('answers 404 when there is no demo shop, rather than using another one', async () => {
    const other = await startTestApp({ NODE_ENV: 'development' });
    try {
      const shop = await other.createShop({ name: 'Only Real Shop' });
      const res = await other.fetch('/demo/thankyou.html?shape=signed');
      expect(res.status).toBe(404);
      const body = await res.text();
      expect(body).toContain('demo shop');
      expect(body).not.toContain(shop.code);
    } finally {
      await other.close();
    }
  });
});

describe('query values in the demo pages', () => {
  const payload = '</script><script>alert(1)</script><!--';
  const q = encodeURIComponent(payload);

  /** Every `<script` in the page is one of the template's own, and each is closed once. */
  function expectInert(body: string, label: string) {
    expect(body, label).not.toContain('<script>alert(1)');
    expect(body, label).not.toContain('</script><!--');
    expect(body.match(/<script\b/gi)?.length ?? 0, label).toBe(body.match(/<\/script>/gi)?.length ?? 0);
  }

  it.each(['untyped', 'escaped', 'strings', 'signed', 'badsig', 'plain'])(
    'are inert in the %s order element',
    async (shape) => {
      const res = await get(`/demo/thankyou.html?shape=${shape}&order=${q}&email=${q}&name=${q}&htmllang=${q}`);
      expect(res.status).toBe(200);
      expectInert(res.body, shape);
    },
  );

  it('keep their value: `<` is escaped inside JSON in a script element, not dropped', async () => {
    const res = await get(`/demo/thankyou.html?shape=untyped&order=${q}`);
    const element = /<script id="service_order_completed">(.*?)<\/script>/s.exec(res.body)?.[1];
    expect(element).toContain('\\u003c/script\\u003e');
    expect((JSON.parse(element!) as { orderNumber: string }).orderNumber).toBe(payload);
    const signed = await get(`/demo/thankyou.html?shape=signed&order=${q}`);
    const json = /<script type="application\/json" id="service_order_completed">(.*?)<\/script>/s.exec(
      signed.body,
    )?.[1];
    const parsed = JSON.parse(json!) as { orderNumber: string; signature: string };
    expect(parsed.orderNumber).toBe(payload);
    const { signature, ...fields } = parsed as unknown as { signature: string } & Record<string, string | number>;
    expect(signature).toBe(orderSignature(fields as never, demo.id, demo.code));
  });

  it('are inert as page globals and in the snippet file', async () => {
    const page = await get(`/demo/shop.html?_service_sidebar_theme=${q}`);
    expectInert(page.body, 'shop.html');
    expect(page.body).toContain('window._service_sidebar_theme = "\\u003c/script\\u003e');
    const js = await get(`/demo/snippet.js?_service_sidebar_theme=${q}`);
    expect(js.body).not.toContain('</script>');
    const csp = await get(`/demo/csp.html?x=${q}`);
    expectInert(csp.body, 'csp.html');
  });
});
