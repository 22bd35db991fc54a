// Teams: roles enforced by the server (403), members of one shop see nothing of another (404), a shop keeps its
// last owner (409), every change in the audit trail; the operator's routes follow the same rules.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { startSmtpSink, type SmtpSink } from '../../test/smtp-sink.js';
import type { Webshop } from '../webshops/store.js';
import type { Role } from './roles.js';
import { signedInAgent, type TestSession } from './test-session.js';

let t: TestApp;
let sink: SmtpSink;
let shopA: Webshop;
let shopB: Webshop;

beforeAll(async () => {
  sink = await startSmtpSink();
  t = await startTestApp({ SMTP_URL: sink.url });
  // The worker's outbox drain sends the e-mails.
  await t.services.scheduler.start();
  shopA = await t.createShop({ name: 'Shop A' });
  shopB = await t.createShop({ name: 'Shop B' });
});
afterAll(async () => {
  await t.services.scheduler.stop();
  t.services.mailer.close();
  await t.close();
  await sink.close();
});

const as = (role: Role, shop = shopA, email = `${role}@${shop.id}.example`) =>
  signedInAgent(t, { email, shopId: shop.id, role });

function call(s: TestSession, method: string, path: string, json?: unknown) {
  const headers: Record<string, string> = { ...s.headers };
  if (json !== undefined) headers['content-type'] = 'application/json';
  return t.fetch(path, { method, headers, body: json === undefined ? undefined : JSON.stringify(json) });
}

const users = (shop: Webshop) => `/dashboard/api/shops/${shop.id}/users`;

describe('roles', () => {
  it('only owners manage the team: manager and support get 403 forbidden on every team call', async () => {
    const owner = await as('owner');
    for (const role of ['manager', 'support'] as const) {
      const s = await as(role);
      const calls: [string, string, unknown?][] = [
        ['GET', users(shopA)],
        ['POST', users(shopA), { email: 'new@a.example', role: 'support' }],
        ['PATCH', `${users(shopA)}/${owner.userId}`, { role: 'support' }],
        ['DELETE', `${users(shopA)}/${owner.userId}`],
      ];
      for (const [method, path, json] of calls) {
        const res = await call(s, method, path, json);
        expect(res.status, `${role} ${method}`).toBe(403);
        expect((await res.json()).error.code).toBe('forbidden');
      }
    }
    expect((await call(owner, 'GET', users(shopA))).status).toBe(200);
  });

  it('a member of shop A gets 404 for shop B, exactly as for a shop that does not exist', async () => {
    const owner = await as('owner');
    const b = await call(owner, 'GET', users(shopB));
    const none = await call(owner, 'GET', '/dashboard/api/shops/999999/users');
    expect(b.status).toBe(404);
    expect(none.status).toBe(404);
    expect(await b.json()).toEqual(await none.json());
    const write = await call(owner, 'POST', users(shopB), { email: 'x@b.example', role: 'owner' });
    expect(write.status).toBe(404);
    expect(await t.services.users.findByEmail('x@b.example')).toBeNull();
  });

  it('a user of two shops sees both in /me, with the role of each', async () => {
    const email = 'agency@both.example';
    await signedInAgent(t, { email, shopId: shopA.id, role: 'manager' });
    const s = await signedInAgent(t, { email, shopId: shopB.id, role: 'support' });
    const me = await (await t.fetch('/dashboard/api/me', { headers: s.headers })).json();
    expect(me.shops).toEqual([
      { id: shopA.id, name: 'Shop A', role: 'manager' },
      { id: shopB.id, name: 'Shop B', role: 'support' },
    ]);
  });
});

describe('an owner manages the team', () => {
  it('adds a user (who gets a sign-in e-mail), changes the role, removes them; each step in the audit trail', async () => {
    const owner = await as('owner');
    const added = await call(owner, 'POST', users(shopA), {
      email: 'Staff@A.example',
      role: 'support',
      language: 'nl',
    });
    expect(added.status).toBe(201);
    const user = await added.json();
    expect(user).toEqual({
      id: expect.any(Number),
      email: 'Staff@a.example',
      role: 'support',
      added_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      added_by: { kind: 'user', id: String(owner.userId) },
      signed_in_since_added: false,
      shop_id: shopA.id,
    });
    await sink.waitFor((s) => s.to('Staff@a.example').length === 1, 60_000);
    expect(sink.to('Staff@a.example')[0]!.headers.subject).toBe(
      'Je hebt nu toegang tot het reviewdashboard van Shop A',
    );

    const again = await call(owner, 'POST', users(shopA), { email: 'staff@a.example', role: 'manager' });
    expect(again.status).toBe(409);
    expect((await again.json()).error.code).toBe('already_member');

    const patched = await call(owner, 'PATCH', `${users(shopA)}/${user.id}`, { role: 'manager' });
    expect(patched.status).toBe(200);
    expect((await patched.json()).role).toBe('manager');

    const list = await (await call(owner, 'GET', users(shopA))).json();
    expect(list.users.find((u: { id: number }) => u.id === user.id)).toMatchObject({
      role: 'manager',
      signed_in_since_added: false,
    });

    expect((await call(owner, 'DELETE', `${users(shopA)}/${user.id}`)).status).toBe(204);
    expect((await call(owner, 'DELETE', `${users(shopA)}/${user.id}`)).status).toBe(404);

    const trail = await t.services.audit.list({ shopId: shopA.id, limit: 50 });
    const mine = trail.filter((e) => e.target === `user:${user.id}`).map((e) => [e.action, e.actor, e.details]);
    expect(mine).toEqual([
      ['team.user_removed', { kind: 'user', id: String(owner.userId) }, { previous_role: 'manager' }],
      ['team.role_changed', { kind: 'user', id: String(owner.userId) }, { role: 'manager', previous_role: 'support' }],
      ['team.user_added', { kind: 'user', id: String(owner.userId) }, { role: 'support' }],
    ]);
    // No address in the trail.
    expect(JSON.stringify(trail)).not.toMatch(/staff@a\.example/i);
  });

  it('cannot remove or demote the last owner (409 last_owner); with a second owner it can', async () => {
    const shop = await t.createShop({ name: 'Solo' });
    const owner = await as('owner', shop, 'solo@owner.example');
    for (const [method, json] of [
      ['PATCH', { role: 'manager' }],
      ['DELETE', undefined],
    ] as const) {
      const res = await call(owner, method, `${users(shop)}/${owner.userId}`, json);
      expect(res.status, method).toBe(409);
      expect((await res.json()).error).toEqual({
        code: 'last_owner',
        message: 'A shop keeps at least one owner: make another user owner first.',
      });
    }
    const second = await (
      await call(owner, 'POST', users(shop), { email: 'second@owner.example', role: 'owner' })
    ).json();
    expect((await call(owner, 'PATCH', `${users(shop)}/${owner.userId}`, { role: 'manager' })).status).toBe(200);
    // Now a manager: the team is no longer theirs to manage.
    expect((await call(owner, 'DELETE', `${users(shop)}/${second.id}`)).status).toBe(403);
    const op = await t.admin(`/admin/api/webshops/${shop.id}/users/${second.id}`, { method: 'DELETE' });
    expect(op.status).toBe(409);
  });

  it('two owners demoting each other at once: one of them stays owner', async () => {
    const shop = await t.createShop({ name: 'Race' });
    const a = await as('owner', shop, 'a@race.example');
    const b = await as('owner', shop, 'b@race.example');
    const [ra, rb] = await Promise.all([
      t.admin(`/admin/api/webshops/${shop.id}/users/${a.userId}`, { method: 'PATCH', json: { role: 'support' } }),
      t.admin(`/admin/api/webshops/${shop.id}/users/${b.userId}`, { method: 'PATCH', json: { role: 'support' } }),
    ]);
    expect([ra.status, rb.status].sort()).toEqual([200, 409]);
    const team = await (await t.admin(`/admin/api/webshops/${shop.id}/users`)).json();
    expect(team.users.filter((u: { role: string }) => u.role === 'owner')).toHaveLength(1);
  });

  it('a removed user loses the shop at once; left without shops, every session ends', async () => {
    const shop = await t.createShop({ name: 'Leaving' });
    const owner = await as('owner', shop, 'boss@leaving.example');
    const staff = await as('support', shop, 'staff@leaving.example');
    expect((await call(staff, 'GET', '/dashboard/api/me')).status).toBe(200);
    expect((await call(owner, 'DELETE', `${users(shop)}/${staff.userId}`)).status).toBe(204);
    expect((await call(staff, 'GET', '/dashboard/api/me')).status).toBe(401);
  });

  it('rejects bad input with a 400 naming the field', async () => {
    const owner = await as('owner');
    const cases: [string, string, unknown][] = [
      ['POST', users(shopA), { email: 'ok@a.example', role: 'admin' }],
      ['POST', users(shopA), { email: 'nope', role: 'support' }],
      ['POST', users(shopA), { email: { $ne: null }, role: 'support' }],
      ['PATCH', `${users(shopA)}/${owner.userId}`, { role: ['owner'] }],
    ];
    for (const [method, path, json] of cases) {
      const res = await call(owner, method, path, json);
      expect(res.status, JSON.stringify(json)).toBe(400);
      expect((await res.json()).error.code).toBe('invalid');
    }
    expect((await call(owner, 'PATCH', `${users(shopA)}/abc`, { role: 'owner' })).status).toBe(404);
  });
});

describe('what an owner learns of a person', () => {
  const ISO = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/g;
  /** The answer with the address, the user's id and the times left out: what may differ between two additions. */
  const masked = (text: string, email: string) =>
    text
      .replaceAll(email, '<email>')
      .replace(/"id":\d+/, '"id":0')
      .replace(ISO, '<time>');

  it('adding an address known from another shop answers exactly as adding an unknown one', async () => {
    const owner = await as('owner', shopA, 'privacy@a.example');
    // Active in shop B: signed in, a live session there.
    const known = await signedInAgent(t, { email: 'known@b.example', shopId: shopB.id, role: 'manager' });
    await t.services.users.recordSignIn(known.userId, new Date());
    const a = await call(owner, 'POST', users(shopA), { email: 'known@b.example', role: 'support' });
    const b = await call(owner, 'POST', users(shopA), { email: 'unknown@a.example', role: 'support' });
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.headers.get('content-type')).toBe(b.headers.get('content-type'));
    expect(masked(await a.text(), 'known@b.example')).toBe(masked(await b.text(), 'unknown@a.example'));
  });

  it('the team list shows role, when and by whom each was added, and whether they signed in since: nothing of other shops', async () => {
    const owner = await as('owner', shopA, 'lister@a.example');
    const other = await signedInAgent(t, { email: 'busy@b.example', shopId: shopB.id, role: 'owner' });
    await t.services.users.recordSignIn(other.userId, new Date(Date.now() - 60_000));
    const added = await (await call(owner, 'POST', users(shopA), { email: 'busy@b.example', role: 'manager' })).json();
    const list = (await (await call(owner, 'GET', users(shopA))).json()).users as Record<string, unknown>[];
    for (const u of list)
      expect(Object.keys(u).sort()).toEqual([
        'added_at',
        'added_by',
        'email',
        'id',
        'role',
        'shop_id',
        'signed_in_since_added',
      ]);
    const row = list.find((u) => u.id === other.userId);
    expect(row).toEqual({
      id: other.userId,
      email: 'busy@b.example',
      role: 'manager',
      added_at: added.added_at,
      added_by: { kind: 'user', id: String(owner.userId) },
      // Signed in for shop B a minute before being added here: not since.
      signed_in_since_added: false,
      shop_id: shopA.id,
    });
    expect(Date.parse(row!.added_at as string)).toBeGreaterThan(Date.now() - 60_000);

    // A sign-in after being added: yes, and still no time of it.
    await t.services.users.recordSignIn(other.userId, new Date(Date.now() + 1000));
    const after = (await (await call(owner, 'GET', users(shopA))).json()).users.find(
      (u: { id: number }) => u.id === other.userId,
    );
    expect(after).toEqual({ ...row, signed_in_since_added: true });
    // A role change keeps when and by whom they were added.
    const patched = await (await call(owner, 'PATCH', `${users(shopA)}/${other.userId}`, { role: 'support' })).json();
    expect(patched).toEqual({ ...after, role: 'support' });
  });
});

describe('the operator', () => {
  it('needs the operator token', async () => {
    expect((await t.fetch(`/admin/api/webshops/${shopA.id}/users`)).status).toBe(401);
  });

  it('adds the first owner of a shop, sees the team, and gets 404 for a shop that does not exist', async () => {
    const shop = await t.createShop({ name: 'Fresh' });
    const res = await t.admin(`/admin/api/webshops/${shop.id}/users`, {
      method: 'POST',
      json: { email: 'first@fresh.example', role: 'owner' },
    });
    expect(res.status).toBe(201);
    const team = await (await t.admin(`/admin/api/webshops/${shop.id}/users`)).json();
    expect(team.users.map((u: { email: string; role: string }) => [u.email, u.role])).toEqual([
      ['first@fresh.example', 'owner'],
    ]);
    const trail = await t.services.audit.list({ shopId: shop.id, limit: 5 });
    expect(trail[0]).toMatchObject({ action: 'team.user_added', actor: { kind: 'operator' } });
    expect((await t.admin('/admin/api/webshops/999999/users')).status).toBe(404);
    const bad = await t.admin(`/admin/api/webshops/${shop.id}/users`, {
      method: 'POST',
      json: { email: 'x@fresh.example', role: 'boss' },
    });
    expect(bad.status).toBe(422);
  });
});
