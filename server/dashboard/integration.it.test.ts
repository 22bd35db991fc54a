import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, withAuth, type TestApp } from '../../test/harness.js';
import { invitationInput } from '../../test/invitations.js';
import { startReceiver, type Receiver } from '../../test/webhook-receiver.js';
import { signedInAgent } from '../accounts/test-session.js';
import type { Role } from '../accounts/roles.js';
import type { Webshop } from '../webshops/store.js';

let t: TestApp;
let receiver: Receiver;
let shop: Webshop;

const sessions = new Map<string, { headers: Record<string, string>; userId: number }>();
async function as(role: Role, s: Webshop = shop) {
  const key = `${role}:${s.id}`;
  if (!sessions.has(key))
    sessions.set(key, await signedInAgent(t, { email: `${role}-${s.id}@merchant.example`, shopId: s.id, role }));
  return sessions.get(key)!;
}

async function call(role: Role, method: string, path: string, body?: unknown, s: Webshop = shop) {
  const headers: Record<string, string> = { ...(await as(role, s)).headers };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await t.fetch(`/dashboard/api/shops/${s.id}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : null, headers: res.headers };
}

const classicSummary = async (s: Pick<Webshop, 'id' | 'code'>) =>
  (await (await t.fetch(withAuth('/api/1.0/ratings_summary.json', s))).json()).status as string;

const auditActions = async (s: Webshop = shop) =>
  (await t.services.audit.list({ shopId: s.id, limit: 100 })).map((e) => e.action);

beforeAll(async () => {
  receiver = await startReceiver();
  t = await startTestApp({ WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', SCHEDULER_POLL_MS: '200' });
  await t.services.scheduler.start();
  shop = await t.createShop({ name: 'Integration Shop' });
});
afterAll(async () => {
  await t.services.scheduler.stop();
  await t.close();
  await receiver.close();
});

describe('GET /dashboard/api/shops/:shopId/integration', () => {
  it('shows the shop id, the signed-order-data setting and the plugins calling Add invitation, to every role', async () => {
    const s = await t.createShop({ name: 'Plugin Shop' });
    const { invitations } = t.services;
    const plugin = { client: 'woocommerce', platformVersion: '8.9.1', pluginVersion: '2.4.0' };
    await invitations.add(s.id, { ...invitationInput('a@p.example', 'P-1'), ...plugin });
    await invitations.add(s.id, { ...invitationInput('b@p.example', 'P-2'), ...plugin });
    await invitations.add(s.id, {
      ...invitationInput('c@p.example', 'P-3'),
      client: 'magento2',
      platformVersion: '2.4.7',
      pluginVersion: '1.0.3',
    });
    for (const role of ['support', 'manager', 'owner'] as const) {
      const res = await call(role, 'GET', '/integration', undefined, s);
      expect(res.status).toBe(200);
      expect(res.json).toEqual({
        shop_id: s.id,
        require_signed_order_data: false,
        plugins: [
          {
            client: 'magento2',
            platform_version: '2.4.7',
            plugin_version: '1.0.3',
            last_seen: expect.any(String),
            invitations: 1,
          },
          {
            client: 'woocommerce',
            platform_version: '8.9.1',
            plugin_version: '2.4.0',
            last_seen: expect.any(String),
            invitations: 2,
          },
        ],
      });
    }
    // What Add invitation received is what was stored: the plugins' fields come from the API call itself.
    const viaApi = await t.fetch(withAuth('/api/1.0/invitations.json', s), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        email: 'd@p.example',
        order: 'P-4',
        client: 'shopware',
        platform_version: '6.5',
        plugin_version: '3.0',
      }),
    });
    expect((await viaApi.json()).status).toBe('success');
    const after = await call('owner', 'GET', '/integration', undefined, s);
    expect(after.json.plugins[0]).toMatchObject({
      client: 'shopware',
      platform_version: '6.5',
      plugin_version: '3.0',
      invitations: 1,
    });
  });
});

describe('the API code', () => {
  it('is shown to the owner on request, and the request is in the audit trail', async () => {
    const res = await call('owner', 'POST', '/integration/code/reveal');
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ code: shop.code });
    expect(res.headers.get('cache-control')).toBe('no-store');
    const [entry] = await t.services.audit.list({ shopId: shop.id, limit: 1 });
    expect(entry).toMatchObject({
      action: 'integration.code_revealed',
      actor: { kind: 'user', id: String((await as('owner')).userId) },
    });
  });

  it('is rotated by the owner: the old code stops at once, the new one works, and the rotation is audited', async () => {
    const s = await t.createShop({ name: 'Rotating Shop' });
    const res = await call('owner', 'POST', '/integration/code/rotate', undefined, s);
    expect(res.status).toBe(200);
    expect(res.json.code).toMatch(/^[0-9a-f]{32}$/);
    expect(res.json.code).not.toBe(s.code);
    expect(await classicSummary(s)).toBe('error');
    expect(await classicSummary({ id: s.id, code: res.json.code })).toBe('success');
    expect(await auditActions(s)).toContain('integration.code_rotated');
    expect((await call('owner', 'POST', '/integration/code/reveal', undefined, s)).json.code).toBe(res.json.code);
  });

  it('is neither shown nor rotated for support or managers (403), and the code keeps working', async () => {
    for (const role of ['support', 'manager'] as const) {
      for (const path of ['/integration/code/reveal', '/integration/code/rotate']) {
        const res = await call(role, 'POST', path);
        expect(res.status).toBe(403);
        expect(res.json.error.code).toBe('forbidden');
      }
    }
    expect(await classicSummary(shop)).toBe('success');
  });

  it('needs the CSRF token and the dashboard origin', async () => {
    const { headers } = await as('owner');
    const withoutToken = await t.fetch(`/dashboard/api/shops/${shop.id}/integration/code/rotate`, {
      method: 'POST',
      headers: { cookie: headers.cookie!, origin: headers.origin! },
    });
    expect(withoutToken.status).toBe(403);
    expect((await withoutToken.json()).error.code).toBe('csrf');
    expect(await classicSummary(shop)).toBe('success');
  });
});

describe('PATCH /dashboard/api/shops/:shopId/integration', () => {
  it('switches require_signed_order_data for the owner, audited', async () => {
    const res = await call('owner', 'PATCH', '/integration', { require_signed_order_data: true });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ shop_id: shop.id, require_signed_order_data: true });
    expect((await t.services.webshops.getFresh(shop.id))!.require_signed_order_data).toBe(true);
    const [entry] = await t.services.audit.list({ shopId: shop.id, limit: 1 });
    expect(entry).toMatchObject({
      action: 'integration.settings_changed',
      details: { require_signed_order_data: { from: false, to: true } },
    });
    await call('owner', 'PATCH', '/integration', { require_signed_order_data: false });
  });

  it('refuses bad input naming the field, and other roles', async () => {
    const bad = await call('owner', 'PATCH', '/integration', { require_signed_order_data: 'yes' });
    expect(bad.status).toBe(400);
    expect(bad.json.error).toEqual({ code: 'invalid', message: expect.stringMatching(/^require_signed_order_data: /) });
    const unknown = await call('owner', 'PATCH', '/integration', { url: 'https://elsewhere.example' });
    expect(unknown.status).toBe(400);
    expect((await call('manager', 'PATCH', '/integration', { require_signed_order_data: true })).status).toBe(403);
  });
});

describe('webhooks in the dashboard', () => {
  it('creates a webhook that receives a signed delivery, shows it in the log, redelivers, changes and deletes it, all audited', async () => {
    const path = '/dashboard-hook';
    const created = await call('owner', 'POST', '/webhooks', {
      url: `${receiver.url}${path}`,
      topic: 'reviews.created',
    });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({
      id: expect.any(Number),
      url: `${receiver.url}${path}`,
      topic: 'reviews.created',
      is_active: true,
      disabled_reason: null,
    });
    expect(created.json.secret).toMatch(/^[0-9a-f]{64}$/);
    receiver.secrets.set(path, created.json.secret);
    const id = created.json.id as number;

    // The same subscription as the classic API's.
    const classic = await (await t.fetch(withAuth('/api/1.0/webhooks.json', shop))).json();
    expect(classic.map((w: { id: number }) => w.id)).toContain(id);

    const listed = await call('owner', 'GET', '/webhooks');
    expect(listed.json).toMatchObject({
      total: 1,
      page: 1,
      page_size: 20,
      items: [{ id, secret: created.json.secret }],
    });

    const review = await t.admin(`/admin/api/webshops/${shop.id}/reviews`, {
      method: 'POST',
      json: { name: 'Hook Tester', email: 'hook@example.com', rating: 5, comment: 'Fine shop.' },
    });
    expect(review.status).toBe(201);
    await receiver.waitFor(() => receiver.at(path).some((r) => r.verified), 60_000);
    const delivered = receiver.at(path).find((r) => r.verified)!;

    let log: { status: number; json: { items: Record<string, unknown>[]; total: number } } | undefined;
    // The log entry is written after the receiver answered: wait for it (a busy machine takes a while).
    // The page's count and its items are two reads: wait for the item itself.
    for (let i = 0; i < 600 && !log?.json.items?.length; i++) {
      log = await call('owner', 'GET', `/webhooks/${id}/deliveries`);
      if (!log.json.items?.length) await new Promise((r) => setTimeout(r, 100));
    }
    expect(log!.json.items[0]).toMatchObject({
      event_id: delivered.eventId,
      http_status: 200,
      attempt: 1,
      redelivery: false,
      topic: 'reviews.created',
    });

    const again = await call('owner', 'POST', `/webhooks/${id}/redeliver`, { event_id: delivered.eventId });
    expect(again.status).toBe(202);
    await receiver.waitFor(() => receiver.at(path).filter((r) => r.verified).length >= 2, 60_000);

    const unknownEvent = await call('owner', 'POST', `/webhooks/${id}/redeliver`, { event_id: '999999:1' });
    expect(unknownEvent.status).toBe(404);
    const badEvent = await call('owner', 'POST', `/webhooks/${id}/redeliver`, { event_id: 'x' });
    expect(badEvent.json.error).toEqual({ code: 'invalid', message: expect.stringMatching(/^event_id: /) });

    const off = await call('owner', 'PATCH', `/webhooks/${id}`, { is_active: false });
    expect(off.json).toMatchObject({ id, is_active: false });
    expect(await t.services.webhooks.active(shop.id, 'reviews.created')).toEqual([]);

    expect((await call('owner', 'DELETE', `/webhooks/${id}`)).status).toBe(204);
    expect((await call('owner', 'GET', '/webhooks')).json.total).toBe(0);
    expect((await call('owner', 'PATCH', `/webhooks/${id}`, { is_active: true })).status).toBe(404);

    const actions = await auditActions();
    for (const action of ['webhook.created', 'webhook.redelivered', 'webhook.changed', 'webhook.deleted'])
      expect(actions).toContain(action);
  });

  it('keeps the classic rules: no private addresses, no plain http, at most 100 per shop (the default), paged', async () => {
    const s = await t.createShop({ name: 'Ruled Shop' });
    const metadata = await call(
      'owner',
      'POST',
      '/webhooks',
      { url: 'https://169.254.169.254/latest', topic: 'reviews.created' },
      s,
    );
    expect(metadata.status).toBe(400);
    expect(metadata.json.error).toEqual({ code: 'invalid', message: expect.stringMatching(/^url: /) });
    const plain = await call(
      'owner',
      'POST',
      '/webhooks',
      { url: 'http://hooks.example/x', topic: 'reviews.created' },
      s,
    );
    expect(plain.json.error.message).toMatch(/^url: /);
    const topic = await call(
      'owner',
      'POST',
      '/webhooks',
      { url: 'https://hooks.example/x', topic: 'orders.created' },
      s,
    );
    expect(topic.json.error).toEqual({ code: 'invalid', message: expect.stringMatching(/^topic: /) });

    for (let i = 0; i < 100; i++) {
      expect(
        (await call('owner', 'POST', '/webhooks', { url: `https://hooks.example/${i}`, topic: 'reviews.updated' }, s))
          .status,
      ).toBe(201);
    }
    const full = await call(
      'owner',
      'POST',
      '/webhooks',
      { url: 'https://hooks.example/101', topic: 'reviews.updated' },
      s,
    );
    expect(full.status).toBe(400);
    expect(full.json.error).toEqual({
      code: 'limit_reached',
      message: expect.stringMatching(/at most 100 webhook subscriptions/),
    });
    const page = await call('owner', 'GET', '/webhooks?page=7&page_size=15', undefined, s);
    expect(page.json).toMatchObject({ total: 100, page: 7, page_size: 15 });
    // Newest first: the last page has the first ten.
    expect(page.json.items.map((w: { url: string }) => w.url)).toEqual(
      Array.from({ length: 10 }, (_, i) => `https://hooks.example/${9 - i}`),
    );
    const second = await call('owner', 'GET', '/webhooks?page=2', undefined, s);
    expect(second.json).toMatchObject({ total: 100, page: 2, page_size: 20 });
    expect(second.json.items.map((w: { url: string }) => w.url)).toEqual(
      Array.from({ length: 20 }, (_, i) => `https://hooks.example/${79 - i}`),
    );
  }, 120_000);

  it('is for owners: managers and support get 403, another shop’s webhook is not found', async () => {
    for (const role of ['manager', 'support'] as const) {
      expect((await call(role, 'GET', '/webhooks')).status).toBe(403);
      expect(
        (await call(role, 'POST', '/webhooks', { url: 'https://hooks.example/m', topic: 'reviews.created' })).status,
      ).toBe(403);
    }
    const other = await t.createShop({ name: 'Foreign Hooks' });
    const foreign = await call(
      'owner',
      'POST',
      '/webhooks',
      { url: 'https://hooks.example/f', topic: 'reviews.created' },
      other,
    );
    const res = await call('owner', 'DELETE', `/webhooks/${foreign.json.id}`);
    expect(res.status).toBe(404);
    expect(await t.services.webhooks.getForShop(other.id, foreign.json.id)).not.toBeNull();
  });
});
