// The caches' rule for credentials (docs/decisions/caching.md), tried with two real processes on one database: this
// test's app and a `ROLE=api` process started as an operator starts it. A rotated API code and a signed-out session
// are refused at once by the process that made the change, and by the other one as soon as CACHE_TTL_MS has passed
// since the change (its cached copy was read before it): never served stale past that.
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { ADMIN_TOKEN, startTestApp, type TestApp } from '../test/harness.js';
import { startService, type ServiceProcess } from '../test/topology.js';
import { signedInAgent } from './accounts/test-session.js';

const TTL_MS = 2000;
const BASE_URL = 'http://127.0.0.1:1';

let here: TestApp;
let other: ServiceProcess;

beforeAll(async () => {
  here = await startTestApp({ CACHE_TTL_MS: String(TTL_MS), BASE_URL });
  other = await startService({
    role: 'api',
    mongodbUri: inject('mongoUri'),
    dbName: here.db.databaseName,
    adminToken: ADMIN_TOKEN,
    env: { CACHE_TTL_MS: String(TTL_MS), BASE_URL },
  });
}, 120_000);

afterAll(async () => {
  await other?.stop();
  await here?.close();
});

/** webshop.json's answer for the id and code: `success`, or the classic error's message. */
async function classicAnswer(base: string, id: number, code: string): Promise<string> {
  const res = await fetch(`${base}/api/1.0/webshop.json?id=${id}&code=${code}`);
  const body = (await res.json()) as { status: string; message?: string };
  return body.status === 'success' ? 'success' : (body.message ?? body.status);
}

const meStatus = async (base: string, cookie: string) =>
  (await fetch(`${base}/dashboard/api/me`, { headers: { cookie } })).status;

it('refuses a rotated API code and a signed-out session at once here, and within CACHE_TTL_MS in another process', {
  timeout: 120_000,
}, async () => {
  const shop = await here.createShop({ name: 'Two Processes BV' });
  const session = await signedInAgent(here, { email: 'owner@two.example', shopId: shop.id, role: 'owner' });
  // Both processes have the shop and the session in their caches.
  for (const base of [here.url, other.url!]) {
    expect(await classicAnswer(base, shop.id, shop.code)).toBe('success');
    expect(await meStatus(base, session.cookie)).toBe(200);
  }

  const changed = Date.now();
  const rotation = await here.admin(`/admin/api/webshops/${shop.id}/code`, { method: 'POST' });
  const { code: rotated } = (await rotation.json()) as { code: string };
  expect((await here.fetch('/dashboard/api/sign-out', { method: 'POST', headers: session.headers })).status).toBe(204);

  // This process: at once.
  expect(await classicAnswer(here.url, shop.id, shop.code)).toBe('Incorrect authentication credentials.');
  expect(await classicAnswer(here.url, shop.id, rotated)).toBe('success');
  expect(await meStatus(here.url, session.cookie)).toBe(401);

  // The other process: once CACHE_TTL_MS has passed since the change, and from then on.
  await new Promise((r) => setTimeout(r, Math.max(0, changed + TTL_MS + 100 - Date.now())));
  for (let i = 0; i < 3; i++) {
    expect(await classicAnswer(other.url!, shop.id, shop.code)).toBe('Incorrect authentication credentials.');
    expect(await classicAnswer(other.url!, shop.id, rotated)).toBe('success');
    expect(await meStatus(other.url!, session.cookie)).toBe(401);
  }
});
