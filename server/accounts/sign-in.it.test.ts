// Sign-in by e-mailed link, against the real app, database and SMTP server: the link page uses nothing up, the
// button signs in once within 15 minutes, unknown addresses get the same answer and no e-mail.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { startSmtpSink, type SmtpSink } from '../../test/smtp-sink.js';
import type { Webshop } from '../webshops/store.js';

let t: TestApp;
let sink: SmtpSink;
let shop: Webshop;
let clock = new Date('2026-03-02T09:00:00Z');
const advance = (ms: number) => (clock = new Date(clock.getTime() + ms));
const MINUTE = 60_000;

beforeAll(async () => {
  sink = await startSmtpSink();
  t = await startTestApp({ SMTP_URL: sink.url, BRAND_NAME: 'Reviews' }, { now: () => clock });
  // The worker's outbox drain sends the e-mails.
  await t.services.scheduler.start();
  shop = await t.createShop({ name: 'Fietsen & Co' });
});
afterAll(async () => {
  await t.services.scheduler.stop();
  t.services.mailer.close();
  await t.close();
  await sink.close();
});

const LINK = /\/dashboard\/sign-in\/([A-Za-z0-9_-]{43})/;

/** Waits for the n-th e-mail to the address and returns the secret of its sign-in link. */
async function linkFromMail(address: string, n: number): Promise<string> {
  await sink.waitFor((s) => s.to(address).length >= n, 60_000);
  const mail = sink.to(address)[n - 1]!;
  return LINK.exec(mail.body)![1]!;
}

const askForLink = (email: string, headers: Record<string, string> = {}) =>
  t.fetch('/dashboard/api/sign-in-link', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ email }),
  });

const pressSignIn = (token: string, headers: Record<string, string> = {}) =>
  t.fetch('/dashboard/sign-in', {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://127.0.0.1:1', ...headers },
    body: new URLSearchParams({ token }).toString(),
  });

async function addUser(email: string, role = 'owner', shopId = shop.id) {
  const res = await t.admin(`/admin/api/webshops/${shopId}/users`, { method: 'POST', json: { email, role } });
  expect(res.status).toBe(201);
  return res.json();
}

describe('a user added by the operator', () => {
  it('gets a sign-in e-mail naming the shop and the role, and shows in the team as not signed in yet', async () => {
    const user = await addUser('Owner@Fietsen.example');
    expect(user).toMatchObject({
      email: 'Owner@fietsen.example',
      role: 'owner',
      added_by: { kind: 'operator' },
      signed_in_since_added: false,
    });
    await linkFromMail('Owner@fietsen.example', 1);
    const mail = sink.to('Owner@fietsen.example')[0]!;
    expect(mail.headers.subject).toBe("You now have access to Fietsen & Co's review dashboard");
    expect(mail.body).toContain('as owner');
    expect(mail.body).toContain('works once, within 15 minutes');
  });

  it('signs in with the link: the page only shows a button, the button starts a session and opens the dashboard', async () => {
    const token = await linkFromMail('Owner@fietsen.example', 1);
    // A mail scanner (or the user twice) opening the link uses nothing up.
    for (let i = 0; i < 2; i++) {
      const page = await t.fetch(`/dashboard/sign-in/${token}`);
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toContain('<form method="post" action="/dashboard/sign-in">');
      expect(html).toContain(`<input type="hidden" name="token" value="${token}">`);
      expect(html).toMatch(/<button type="submit">Sign in<\/button>/);
      expect(html).not.toMatch(/<script/i);
      expect(page.headers.get('referrer-policy')).toBe('no-referrer');
      expect(page.headers.get('x-frame-options')).toBe('DENY');
      expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(page.headers.get('content-security-policy')).toMatch(/^default-src 'none'/);
      expect(page.headers.get('cache-control')).toBe('no-store');
    }

    const res = await pressSignIn(token);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/dashboard/');
    const cookie = res.headers.get('set-cookie')!;
    // Over http: no Secure (the browser would drop it) and so no __Host- prefix.
    expect(cookie).toMatch(/^session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=7776000$/);

    const me = await t.fetch('/dashboard/api/me', { headers: { cookie: cookie.split(';')[0]! } });
    expect(me.status).toBe(200);
    const body = await me.json();
    expect(body).toMatchObject({
      user: { email: 'Owner@fietsen.example' },
      shops: [{ id: shop.id, name: 'Fietsen & Co', role: 'owner' }],
      language: null,
    });
    expect(body.csrf_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(me.headers.get('cache-control')).toBe('no-store');

    const team = await (await t.admin(`/admin/api/webshops/${shop.id}/users`)).json();
    expect(team.users).toEqual([
      expect.objectContaining({
        email: 'Owner@fietsen.example',
        added_at: clock.toISOString(),
        signed_in_since_added: true,
      }),
    ]);
  });

  it('cannot use the same link twice: the second press gets a page saying so, with a form for a new link', async () => {
    const token = await linkFromMail('Owner@fietsen.example', 1);
    const again = await pressSignIn(token);
    expect(again.status).toBe(410);
    expect(again.headers.get('set-cookie')).toBeNull();
    const html = await again.text();
    expect(html).toContain('This sign-in link was used already');
    expect(html).toContain('<form method="post" action="/dashboard/sign-in/new">');
    expect(again.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    // Opening it again shows the button as before; pressing it answers the same page again.
    expect((await t.fetch(`/dashboard/sign-in/${token}`)).status).toBe(200);
    expect((await pressSignIn(token)).status).toBe(410);
  });

  it('a link works for 15 minutes and not a second longer', async () => {
    expect((await askForLink('owner@fietsen.example')).status).toBe(202);
    const early = await linkFromMail('Owner@fietsen.example', 2);
    expect((await askForLink('owner@fietsen.example')).status).toBe(202);
    const late = await linkFromMail('Owner@fietsen.example', 3);
    advance(15 * MINUTE - 1000);
    expect((await pressSignIn(early)).status).toBe(303);
    advance(1000);
    const res = await pressSignIn(late);
    expect(res.status).toBe(410);
    expect(await res.text()).toContain('This sign-in link has expired');
  });

  it('two presses racing with one link: exactly one session', async () => {
    expect((await askForLink('owner@fietsen.example')).status).toBe(202);
    const token = await linkFromMail('Owner@fietsen.example', 4);
    const results = await Promise.all(Array.from({ length: 5 }, () => pressSignIn(token)));
    expect(results.map((r) => r.status).sort()).toEqual([303, 410, 410, 410, 410]);
  });

  it('an unknown or malformed secret is a readable 404 page, never a lookup of anything else', async () => {
    const unknown = await t.fetch(`/dashboard/sign-in/${'A'.repeat(43)}`);
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain('This sign-in link does not work');
    for (const token of ['x', `${'A'.repeat(43)}'`, '{"$ne":null}']) {
      expect((await pressSignIn(token)).status).toBe(404);
    }
    const injected = await t.fetch('/dashboard/sign-in', {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: { $ne: null } }),
    });
    expect(injected.status).toBe(404);
    expect(injected.headers.get('set-cookie')).toBeNull();
  });

  it('refuses a sign-in form sent from another site (login CSRF)', async () => {
    expect((await askForLink('owner@fietsen.example')).status).toBe(202);
    const token = await linkFromMail('Owner@fietsen.example', 5);
    const res = await pressSignIn(token, { origin: 'https://evil.example' });
    expect(res.status).toBe(403);
    expect(res.headers.get('set-cookie')).toBeNull();
    // The link was not used up by the refused attempt.
    expect((await pressSignIn(token)).status).toBe(303);
  });

  it("accepts the link page's own form posted with Origin: null (no-referrer) only when Fetch Metadata says same-origin", async () => {
    await addUser('origin-null@fietsen.example', 'support');
    await linkFromMail('origin-null@fietsen.example', 1);
    expect((await askForLink('origin-null@fietsen.example')).status).toBe(202);
    const token = await linkFromMail('origin-null@fietsen.example', 2);
    for (const site of ['cross-site', 'same-site']) {
      const foreign = await pressSignIn(token, { origin: 'null', 'sec-fetch-site': site });
      expect(foreign.status).toBe(403);
    }
    expect((await pressSignIn(token, { origin: 'null' })).status).toBe(403);
    const own = await pressSignIn(token, { origin: 'null', 'sec-fetch-site': 'same-origin' });
    expect(own.status).toBe(303);
    expect(own.headers.get('set-cookie')).toContain('session=');
  });

  it('speaks Dutch to a Dutch browser, in the page and the e-mail', async () => {
    expect((await askForLink('owner@fietsen.example', { 'accept-language': 'nl-NL,nl;q=0.9,en;q=0.5' })).status).toBe(
      202,
    );
    const token = await linkFromMail('Owner@fietsen.example', 6);
    expect(sink.to('Owner@fietsen.example')[5]!.headers.subject).toBe('Je inloglink voor Reviews');
    const page = await t.fetch(`/dashboard/sign-in/${token}`, { headers: { 'accept-language': 'nl-BE,nl;q=0.9' } });
    const html = await page.text();
    expect(html).toContain('<html lang="nl">');
    expect(html).toMatch(/<button type="submit">Inloggen<\/button>/);
  });
});

describe('asking for a link', () => {
  it('answers an unknown address exactly as a known one, and sends it nothing', async () => {
    // The tests above spent this hour's links of the known address (limits.it.test.ts).
    advance(60 * MINUTE);
    const before = sink.received.length;
    const unknown = await askForLink('nobody@nowhere.example');
    const known = await askForLink('owner@fietsen.example');
    expect(unknown.status).toBe(202);
    expect(known.status).toBe(202);
    expect(await unknown.json()).toEqual(await known.json());
    expect([...unknown.headers.keys()].sort()).toEqual([...known.headers.keys()].sort());
    await sink.waitFor((s) => s.received.length > before, 60_000);
    await new Promise((r) => setTimeout(r, 300));
    expect(sink.to('nobody@nowhere.example')).toEqual([]);
    expect(sink.received.length).toBe(before + 1);
  });

  it('sends nothing to a user who no longer belongs to any shop', async () => {
    const user = await addUser('gone@fietsen.example', 'support');
    await linkFromMail('gone@fietsen.example', 1);
    expect((await t.admin(`/admin/api/webshops/${shop.id}/users/${user.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await askForLink('gone@fietsen.example')).status).toBe(202);
    await new Promise((r) => setTimeout(r, 300));
    expect(sink.to('gone@fietsen.example')).toHaveLength(1);
  });

  it('rejects what is not an address with a 400 naming the field', async () => {
    for (const email of ['not-an-address', '', { $gt: '' }]) {
      const res = await t.fetch('/dashboard/api/sign-in-link', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email }),
      });
      expect(res.status).toBe(400);
      const { error } = await res.json();
      expect(error.code).toBe('invalid');
      expect(error.message).toMatch(/^email: /);
    }
  });

  it('the pages form for a new link answers with a page, the same for any address', async () => {
    const res = await t.fetch('/dashboard/sign-in/new', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'email=someone%40else.example',
    });
    expect(res.status).toBe(202);
    expect(await res.text()).toContain('If this address has access to a shop, a sign-in link is on its way.');
  });
});
