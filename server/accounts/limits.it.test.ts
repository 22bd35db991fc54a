// Asking for sign-in links is limited per address (however many clients ask, in however many processes) and per
// client (whatever the addresses): 429 with Retry-After, in the dashboard API's envelope. A fresh app (and database)
// per test.
import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { buildApp } from '../app.js';
import { LINKS_PER_CLIENT } from './routes.js';
import { LINKS_PER_ADDRESS } from './link-store.js';

let t: TestApp | undefined;
let clock = new Date('2026-03-02T09:00:00Z');
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const ask = (app: TestApp, email: string, ip?: string) =>
  app.fetch('/dashboard/api/sign-in-link', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(ip ? { 'x-forwarded-for': ip } : {}) },
    body: JSON.stringify({ email }),
  });

describe('sign-in link limits', () => {
  it(`one address: ${LINKS_PER_ADDRESS} links in 15 minutes, from any number of clients`, async () => {
    // Behind a proxy, so each request can come from another client address.
    t = await startTestApp({ TRUST_PROXY: '1' }, { now: () => clock });
    for (let i = 0; i < LINKS_PER_ADDRESS; i++) expect((await ask(t, 'target@shop.example', `198.51.100.${i + 1}`)).status).toBe(202);
    // Any spelling of the same address counts against it.
    const res = await ask(t, ' TARGET@Shop.Example', '198.51.100.99');
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(res.headers.get('retry-after'))).toBeLessThanOrEqual(15 * 60);
    expect((await res.json()).error.code).toBe('too_many_requests');
    // Another address is not held up.
    expect((await ask(t, 'other@shop.example', '198.51.100.99')).status).toBe(202);
    clock = new Date(clock.getTime() + 15 * 60_000);
    expect((await ask(t, 'target@shop.example', '198.51.100.99')).status).toBe(202);
  });

  it(`one address: ${LINKS_PER_ADDRESS} links in 15 minutes across processes, not that many per process`, async () => {
    t = await startTestApp({}, { now: () => clock });
    // A second API process on the same database.
    const other = await buildApp({ config: t.services.config, db: t.db, log: t.services.log, now: () => clock });
    const server: Server = createServer(other.app.callback());
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/dashboard/api/sign-in-link`;
      const askOther = (email: string) =>
        fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email }) });
      const statuses: number[] = [];
      for (let i = 0; i < LINKS_PER_ADDRESS; i++) statuses.push((await (i % 2 ? askOther : (e: string) => ask(t!, e))('inbox@shop.example')).status);
      expect(statuses).toEqual(Array(LINKS_PER_ADDRESS).fill(202));
      expect((await askOther('inbox@shop.example')).status).toBe(429);
      expect((await ask(t, 'inbox@shop.example')).status).toBe(429);
    } finally {
      server.closeAllConnections();
      await new Promise((ok) => server.close(ok));
      await other.services.scheduler.stop().catch(() => undefined);
    }
  });

  it(`one client: ${LINKS_PER_CLIENT} requests in 15 minutes, whatever the addresses`, async () => {
    t = await startTestApp({ TRUST_PROXY: '1' }, { now: () => clock });
    for (let i = 0; i < LINKS_PER_CLIENT; i++) expect((await ask(t, `a${i}@shop.example`, '203.0.113.7')).status).toBe(202);
    const res = await ask(t, 'fresh@shop.example', '203.0.113.7');
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).not.toBeNull();
    // The same form on the pages counts too, and answers as a page.
    const page = await t.fetch('/dashboard/sign-in/new', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': '203.0.113.7' },
      body: 'email=fresh%40shop.example',
    });
    expect(page.status).toBe(429);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    // Another client is not held up.
    expect((await ask(t, 'fresh@shop.example', '203.0.113.8')).status).toBe(202);
  });
});
