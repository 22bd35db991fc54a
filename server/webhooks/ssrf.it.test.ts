// SSRF protection over real HTTP: the subscribe endpoint refuses internal targets, deliveries check every
// resolved address again, and the connection goes to the address that was checked.
import { lookup } from 'node:dns/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, withAuth, type TestApp } from '../../test/harness.js';
import { startReceiver, type Receiver } from '../../test/webhook-receiver.js';
import type { Webshop } from '../webshops/store.js';
import { postWebhook } from './send.js';
import { isForbiddenAddress } from './ssrf.js';

let t: TestApp;
let receiver: Receiver;
let shop: Webshop;
/** This machine's name, when it resolves to addresses webhooks may not reach (loopback on most hosts). */
let internalName: string | undefined;

beforeAll(async () => {
  receiver = await startReceiver();
  // No WEBHOOK_ALLOWED_HOSTS: the production rules.
  t = await startTestApp({ WEBHOOK_RETRY_SCHEDULE: '60', SCHEDULER_POLL_MS: '200' });
  await t.services.scheduler.start();
  shop = await t.createShop();
  const addresses = await lookup(hostname(), { all: true }).catch(() => []);
  if (addresses.length && addresses.every((a) => isForbiddenAddress(a.address))) internalName = hostname();
});
afterAll(async () => {
  await t.services.scheduler.stop();
  await t.close();
  await receiver.close();
});

const subscribe = (url: string) =>
  t.fetch(withAuth('/api/1.0/webhook.json', shop), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ url, topic: 'reviews.created' }),
  });

describe('subscribe', () => {
  it.each([
    ['https://127.0.0.1/hook', /^url: 127\.0\.0\.1 is a loopback, private, link-local or metadata address/],
    ['https://10.0.0.1/hook', /^url: 10\.0\.0\.1 is a loopback, private/],
    ['https://169.254.169.254/latest/meta-data/', /^url: 169\.254\.169\.254 is a/],
    ['https://[::1]/hook', /^url: ::1 is a/],
    ['https://[::ffff:7f00:1]/hook', /^url: ::ffff:7f00:1 is a/],
    ['https://100.64.0.1/hook', /^url: 100\.64\.0\.1 is a/],
    ['https://0x7f000001/hook', /^url: 127\.0\.0\.1 is a/],
    ['https://localhost/hook', /^url: localhost is a loopback name/],
    ['http://hooks.example/hook', 'url: must be an https:// URL'],
  ])('refuses %s with 400 and a message', async (url, message) => {
    const res = await subscribe(url);
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.status).toBe('error');
    if (typeof message === 'string') expect(body.message).toBe(message);
    else expect(body.message).toMatch(message);
  });

  it('refuses a host name that resolves to a loopback or private address', async (ctx) => {
    if (!internalName) ctx.skip();
    const res = await subscribe(`https://${internalName}/hook`);
    expect(res.status).toBe(400);
    expect((await res.json()).message).toMatch(new RegExp(`^url: ${internalName} resolves to .*, which is a loopback`));
  });

  it('accepts a public https URL, and one whose host does not resolve yet', async () => {
    expect((await (await subscribe('https://93.184.215.14/hook')).json()).status).toBe('success');
    expect((await (await subscribe('https://hooks.example/hook')).json()).status).toBe('success');
  });

  it('accepts http and private addresses for hosts in WEBHOOK_ALLOWED_HOSTS, and only for those', async () => {
    const allowed = await startTestApp({ WEBHOOK_ALLOWED_HOSTS: '127.0.0.1,[::1]' });
    try {
      const s = await allowed.createShop();
      const post = (url: string) =>
        allowed.fetch(withAuth('/api/1.0/webhook.json', s), {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ url, topic: 'reviews.created' }),
        });
      expect((await post('http://127.0.0.1:8080/hook')).status).toBe(200);
      expect((await post('http://[::1]:8080/hook')).status).toBe(200);
      expect((await post('https://localhost/hook')).status).toBe(400);
      expect((await post('https://10.0.0.1/hook')).status).toBe(400);
    } finally {
      await allowed.close();
    }
  });
});

describe('delivery', () => {
  // Subscriptions written straight to the store stand for hosts whose DNS answer changed after subscribing.
  async function attemptTo(url: string, path: string) {
    const s = await t.createShop();
    const subscription = await t.services.webhooks.create(s.id, { url, topic: 'reviews.created', is_active: true });
    receiver.secrets.set(path, subscription.secret);
    const res = await t.admin(`/admin/api/webshops/${s.id}/reviews`, {
      method: 'POST',
      json: { rating: 5, name: 'Jane' },
    });
    expect(res.status).toBe(201);
    // As long as a busy machine may need: it is never a bound on how soon.
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      const log = await t.services.webhookDeliveries.logPage(subscription.id, 0, 10);
      if (log.items.length > 0) return log.items;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('no attempt logged');
  }

  it('refuses a loopback address at delivery time and logs why', async () => {
    const [entry] = await attemptTo(`http://127.0.0.1:${receiver.port}/literal`, '/literal');
    expect(entry).toMatchObject({ status: null, error: 'refused: must be an https:// URL' });
    const [https] = await attemptTo(`https://127.0.0.1:${receiver.port}/literal`, '/literal');
    expect(https).toMatchObject({ status: null, error: expect.stringMatching(/^refused: 127\.0\.0\.1 is a loopback/) });
    const [v6] = await attemptTo(`https://[::1]:${receiver.port}/literal`, '/literal');
    expect(v6).toMatchObject({ status: null, error: expect.stringMatching(/^refused: ::1 is a loopback/) });
    expect(receiver.at('/literal')).toEqual([]);
  });

  it('refuses a host name that now resolves to loopback, checked at delivery time', async (ctx) => {
    if (!internalName) ctx.skip();
    const [entry] = await attemptTo(`https://${internalName}:${receiver.port}/rebound`, '/rebound');
    expect(entry!.error).toMatch(new RegExp(`^refused: ${internalName} resolves to`));
    expect(receiver.at('/rebound')).toEqual([]);
  });

  it('connects to the address that was checked, without asking DNS again', async () => {
    // `rebind.invalid` exists for nobody's DNS: the request can only arrive through the checked address.
    let lookups = 0;
    const result = await postWebhook({
      url: `http://rebind.invalid:${receiver.port}/pinned`,
      body: '{}',
      headers: { 'content-type': 'application/json' },
      allowedHosts: ['rebind.invalid'],
      resolve: async () => {
        lookups++;
        return [{ address: '127.0.0.1', family: 4 }];
      },
    });
    expect(lookups).toBe(1);
    // The receiver has no secret for this path: it answers 401, but it was reached, with the original Host.
    expect(result).toMatchObject({ status: 401, error: null });
    expect(receiver.at('/pinned')[0]!.host).toBe(`rebind.invalid:${receiver.port}`);
  });

  it('gives up after the timeout and reads no more than a small part of a long answer', async () => {
    const server = createServer((req, res) => {
      // Never answers: only the timeout ends the request.
      if (req.url === '/slow') return;
      res.writeHead(200);
      const chunk = Buffer.alloc(64 * 1024, 'x');
      const pump = () => {
        while (res.write(chunk));
      };
      res.on('drain', pump);
      pump();
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const slow = await postWebhook({
        url: `${base}/slow`,
        body: '{}',
        headers: {},
        allowedHosts: ['127.0.0.1'],
        timeoutMs: 300,
      });
      // Given up by the timeout: a request that waited for an answer would never end.
      expect(slow).toMatchObject({ status: null, error: 'timed out after 0.3 s' });
      const endless = await postWebhook({
        url: `${base}/endless`,
        body: '{}',
        headers: {},
        allowedHosts: ['127.0.0.1'],
        timeoutMs: 3000,
      });
      expect(endless).toMatchObject({ status: 200, error: null });
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
