// Sessions: 30 days sliding, 90 days at most, listed and revocable, sign out (everywhere); Origin and CSRF token
// on every state-changing call; the cookie's attributes over http and https.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness.js';
import type { Webshop } from '../webshops/store.js';
import { signedInAgent, type TestSession } from './test-session.js';

let t: TestApp;
let shop: Webshop;
let clock = new Date('2026-03-02T09:00:00Z');
const DAY = 24 * 3_600_000;
const advance = (ms: number) => (clock = new Date(clock.getTime() + ms));

beforeAll(async () => {
  t = await startTestApp({}, { now: () => clock });
  shop = await t.createShop();
});
afterAll(() => t.close());

const me = (s: Pick<TestSession, 'cookie'>) => t.fetch('/dashboard/api/me', { headers: { cookie: s.cookie } });
const post = (path: string, headers: Record<string, string>) => t.fetch(path, { method: 'POST', headers });

let n = 0;
const newSession = (email = `user${++n}@shop.example`) => signedInAgent(t, { email, shopId: shop.id, role: 'owner' });

describe('session lifetime', () => {
  it('slides: used at least every 30 days, a session lives on', async () => {
    const s = await newSession();
    for (let i = 0; i < 2; i++) {
      advance(29 * DAY);
      expect((await me(s)).status).toBe(200);
    }
  });

  it('ends after 30 days without use', async () => {
    const s = await newSession();
    advance(30 * DAY - 1000);
    expect((await me(s)).status).toBe(200);
    advance(30 * DAY);
    const res = await me(s);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: { code: 'unauthenticated', message: 'Sign in to use the dashboard.' } });
  });

  it('ends after 90 days however often it is used', async () => {
    const s = await newSession();
    for (let day = 0; day < 89; day += 10) {
      advance(10 * DAY);
      expect((await me(s)).status, `day ${day + 10}`).toBe(day + 10 < 90 ? 200 : 401);
    }
    advance(DAY);
    expect((await me(s)).status).toBe(401);
  });

  it('a cookie that is no session, or is malformed, is 401', async () => {
    for (const cookie of [
      `session=${'A'.repeat(43)}`,
      'session=x',
      'session=',
      'other=1',
      `__Host-session=${'A'.repeat(43)}`,
    ]) {
      expect((await t.fetch('/dashboard/api/me', { headers: { cookie } })).status, cookie).toBe(401);
    }
    expect((await t.fetch('/dashboard/api/me')).status).toBe(401);
    // Whatever the path under the API.
    expect((await t.fetch('/dashboard/api/shops/1/reviews')).status).toBe(401);
  });
});

describe('the hourly clean-up', () => {
  it('removes ended sessions and expired sign-in links, and nothing live', async () => {
    const ended = await newSession();
    advance(31 * DAY);
    const live = await newSession();
    const link = {
      digest: 'd'.repeat(64),
      userId: live.userId,
      created: clock,
      expires: new Date(clock.getTime() + 15 * 60_000),
    };
    await t.services.signInLinks.add(link);
    expect(await t.services.sessions.countListed(ended.userId, new Date(0))).toBe(1);
    expect(await t.services.sessions.deleteEnded(clock)).toBeGreaterThanOrEqual(1);
    // Gone from the user's list too, so the team page no longer counts it.
    expect(await t.services.sessions.countListed(ended.userId, new Date(0))).toBe(0);
    expect(await t.services.signInLinks.deleteExpired(clock)).toBe(0);
    expect((await me(live)).status).toBe(200);
    expect((await me(ended)).status).toBe(401);
    advance(15 * 60_000);
    expect(await t.services.signInLinks.deleteExpired(clock)).toBe(1);
    expect(await t.services.signInLinks.byDigest(link.digest)).toBeNull();
  });
});

describe('sessions of a user', () => {
  it('lists them with the current one marked, revokes one, then the others with sign out everywhere', async () => {
    const email = 'many@shop.example';
    const [a, b, c] = [await newSession(email), await newSession(email), await newSession(email)];
    const list = await (await t.fetch('/dashboard/api/sessions', { headers: a.headers })).json();
    expect(list.sessions).toHaveLength(3);
    expect(list.sessions.filter((s: { current: boolean }) => s.current).map((s: { id: string }) => s.id)).toEqual([
      a.sessionId,
    ]);
    expect(list.sessions[0]).toEqual({
      id: expect.any(String),
      created: clock.toISOString(),
      last_seen: clock.toISOString(),
      expires: new Date(clock.getTime() + 30 * DAY).toISOString(),
      user_agent: 'vitest',
      current: expect.any(Boolean),
    });

    const revoke = await t.fetch(`/dashboard/api/sessions/${b.sessionId}`, { method: 'DELETE', headers: a.headers });
    expect(revoke.status).toBe(204);
    expect((await me(b)).status).toBe(401);
    expect((await me(a)).status).toBe(200);
    expect(
      (await t.fetch(`/dashboard/api/sessions/${b.sessionId}`, { method: 'DELETE', headers: a.headers })).status,
    ).toBe(404);

    const everywhere = await post('/dashboard/api/sign-out-everywhere', a.headers);
    expect(everywhere.status).toBe(200);
    expect(await everywhere.json()).toEqual({ ended: 2 });
    expect(everywhere.headers.get('set-cookie')).toMatch(/^session=; Path=\/; HttpOnly; SameSite=Lax; Max-Age=0$/);
    expect((await me(a)).status).toBe(401);
    expect((await me(c)).status).toBe(401);
  });

  it("cannot revoke another user's session", async () => {
    const mine = await newSession();
    const theirs = await newSession();
    const res = await t.fetch(`/dashboard/api/sessions/${theirs.sessionId}`, {
      method: 'DELETE',
      headers: mine.headers,
    });
    expect(res.status).toBe(404);
    expect((await me(theirs)).status).toBe(200);
  });

  it('sign out ends this session only', async () => {
    const email = 'two@shop.example';
    const [a, b] = [await newSession(email), await newSession(email)];
    const res = await post('/dashboard/api/sign-out', a.headers);
    expect(res.status).toBe(204);
    expect(res.headers.get('set-cookie')).toContain('Max-Age=0');
    expect((await me(a)).status).toBe(401);
    expect((await me(b)).status).toBe(200);
  });
});

describe('cross-site requests', () => {
  it('a state-changing call needs the dashboard Origin and the session CSRF token (403 csrf)', async () => {
    const s = await newSession();
    const cases: [string, Record<string, string>][] = [
      ['no Origin', { cookie: s.cookie, 'x-csrf-token': s.csrf }],
      ['another site', { cookie: s.cookie, origin: 'https://evil.example', 'x-csrf-token': s.csrf }],
      ['same host, other scheme', { cookie: s.cookie, origin: 'https://127.0.0.1:1', 'x-csrf-token': s.csrf }],
      ['"null" origin', { cookie: s.cookie, origin: 'null', 'x-csrf-token': s.csrf }],
      ['no token', { cookie: s.cookie, origin: 'http://127.0.0.1:1' }],
      ['wrong token', { cookie: s.cookie, origin: 'http://127.0.0.1:1', 'x-csrf-token': 'A'.repeat(43) }],
    ];
    for (const [name, headers] of cases) {
      const res = await post('/dashboard/api/sign-out', headers);
      expect(res.status, name).toBe(403);
      expect((await res.json()).error.code, name).toBe('csrf');
    }
    const other = await newSession();
    const borrowed = await post('/dashboard/api/sign-out', { ...s.headers, 'x-csrf-token': other.csrf });
    expect(borrowed.status, "another session's token").toBe(403);
    // Nothing was signed out by the refused calls.
    expect((await me(s)).status).toBe(200);
    expect((await post('/dashboard/api/sign-out', s.headers)).status).toBe(204);
  });

  it('reads need no token; the API sends no CORS headers', async () => {
    const s = await newSession();
    const res = await t.fetch('/dashboard/api/me', { headers: { cookie: s.cookie, origin: 'https://evil.example' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    const preflight = await t.fetch('/dashboard/api/sign-out', {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('the cookie over https', () => {
  it('is __Host-session, Secure; the plain name is not read there', async () => {
    const https = await startTestApp({ BASE_URL: 'https://reviews.example' }, { now: () => clock });
    try {
      const httpsShop = await https.createShop();
      const s = await signedInAgent(https, { email: 'secure@shop.example', shopId: httpsShop.id, role: 'owner' });
      expect(s.cookie).toMatch(/^__Host-session=/);
      expect((await https.fetch('/dashboard/api/me', { headers: { cookie: s.cookie } })).status).toBe(200);
      const plain = s.cookie.replace('__Host-session=', 'session=');
      expect((await https.fetch('/dashboard/api/me', { headers: { cookie: plain } })).status).toBe(401);
      const out = await https.fetch('/dashboard/api/sign-out', { method: 'POST', headers: s.headers });
      expect(out.status).toBe(204);
      expect(out.headers.get('set-cookie')).toBe('__Host-session=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0; Secure');
    } finally {
      await https.close();
    }
  });
});
