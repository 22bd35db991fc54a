import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { signedInAgent } from '../accounts/test-session.js';
import type { Role } from '../accounts/roles.js';
import type { Webshop } from '../webshops/store.js';
import { DEFAULTS } from '../../embed/shared/settings.js';

let t: TestApp;
let shop: Webshop;

const sessions = new Map<string, Record<string, string>>();
async function call(role: Role, method: string, path: string, body?: unknown, s: Webshop = shop) {
  const key = `${role}:${s.id}`;
  if (!sessions.has(key))
    sessions.set(
      key,
      (await signedInAgent(t, { email: `${role}-${s.id}@merchant.example`, shopId: s.id, role })).headers,
    );
  const headers: Record<string, string> = { ...sessions.get(key)! };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await t.fetch(`/dashboard/api/shops/${s.id}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: await res.json() };
}

beforeAll(async () => {
  t = await startTestApp({ BASE_URL: 'https://reviews.example', BRAND: 'acme' });
  shop = await t.createShop({ name: 'Widget Shop' });
});
afterAll(() => t.close());

describe('GET /dashboard/api/shops/:shopId/widget', () => {
  it('gives managers the settings, the snippets with the shop id (never the API code) and the configurator', async () => {
    const res = await call('manager', 'GET', '/widget');
    expect(res.status).toBe(200);
    expect(res.json.settings).toEqual(DEFAULTS);
    expect(res.json.configurator_url).toBe(`https://reviews.example/webshops/widget?id=${shop.id}`);
    expect(res.json.preview_url).toBe(`https://reviews.example/webshops/${shop.id}/sidebar-preview`);
    expect(res.json.global_prefix).toBe(`_${t.services.config.brand}_`);
    const { sidebar_script, order_data_element, php_signature } = res.json.snippets;
    expect(sidebar_script).toContain(`var id = ${shop.id};`);
    expect(sidebar_script).toContain('"https://reviews.example" + \'/sidebar.js?id=\'');
    expect(order_data_element).toContain('id="acme_order_completed"');
    expect(order_data_element).toContain(`"webshopId": ${shop.id}`);
    expect(php_signature).toContain(`hash_hmac('sha512', http_build_query($fields), "${shop.id}:$apiCode")`);
    expect(JSON.stringify(res.json)).not.toContain(shop.code);
  });

  it('is not for support (403)', async () => {
    const res = await call('support', 'GET', '/widget');
    expect(res.status).toBe(403);
    expect(res.json.error.code).toBe('forbidden');
  });
});

describe('PATCH /dashboard/api/shops/:shopId/widget', () => {
  it('changes settings as the operator API validates them; the embed serves them; audited', async () => {
    const res = await call('manager', 'PATCH', '/widget', { position: 'right', theme: 'LIGHT', top: '40%' });
    expect(res.status).toBe(200);
    expect(res.json.settings).toEqual({ ...DEFAULTS, position: 'right', theme: 'light', top: '40%' });
    const again = await call('manager', 'PATCH', '/widget', { tooltip: false });
    expect(again.json.settings).toMatchObject({ position: 'right', tooltip: false });
    expect((await t.services.webshops.getFresh(shop.id))!.sidebar).toEqual({
      position: 'right',
      theme: 'light',
      top: '40%',
      tooltip: false,
    });
    const operatorView = await (await t.admin(`/admin/api/webshops/${shop.id}`)).json();
    expect(operatorView.sidebar).toMatchObject({ position: 'right', tooltip: false });
    const entries = await t.services.audit.list({ shopId: shop.id, limit: 10 });
    expect(entries.map((e) => [e.action, e.details])).toContainEqual([
      'widget.settings_changed',
      { sidebar: { tooltip: { from: true, to: false } } },
    ]);
  });

  it('refuses a value the table does not allow, an unknown setting and an empty change, naming them', async () => {
    const bad = await call('manager', 'PATCH', '/widget', { position: 'middle' });
    expect(bad.status).toBe(400);
    expect(bad.json.error).toEqual({
      code: 'invalid',
      message: expect.stringMatching(/^position: one of: left\|right/),
    });
    const unknown = await call('manager', 'PATCH', '/widget', { colour: 'red' });
    expect(unknown.status).toBe(400);
    expect(unknown.json.error.code).toBe('invalid');
    const operatorInjection = await call('manager', 'PATCH', '/widget', { theme: { $ne: 'x' } });
    expect(operatorInjection.status).toBe(400);
    expect((await call('manager', 'PATCH', '/widget', {})).status).toBe(400);
    expect((await call('support', 'PATCH', '/widget', { position: 'left' })).status).toBe(403);
  });
});

describe('GET /dashboard/api/shops/:shopId/audit', () => {
  it('lists the shop’s trail newest first, paged, to owners only', async () => {
    const s = await t.createShop({ name: 'Audited Shop' });
    for (const position of ['left', 'right', 'left']) await call('manager', 'PATCH', '/widget', { position }, s);
    await t.services.audit.record({
      shopId: s.id,
      actor: { kind: 'operator' },
      action: 'report.kept',
      target: 'review:1',
    });
    const first = await call('owner', 'GET', '/audit?page_size=2', undefined, s);
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({ total: 4, page: 1, page_size: 2 });
    expect(first.json.items.map((e: { action: string }) => e.action)).toEqual([
      'report.kept',
      'widget.settings_changed',
    ]);
    expect(first.json.items[0]).toMatchObject({ actor: 'operator', target: 'review:1', at: expect.any(String) });
    expect(first.json.items[1].actor).toMatch(/^user:\d+$/);
    const second = await call('owner', 'GET', '/audit?page=2&page_size=2', undefined, s);
    // Each entry names the setting before → after; the first PATCH asked for the default, so nothing changed.
    expect(second.json.items.map((e: { details: unknown }) => e.details)).toEqual([
      { sidebar: { position: { from: 'left', to: 'right' } } },
      {},
    ]);
    expect((await call('manager', 'GET', '/audit', undefined, s)).status).toBe(403);
    // Another shop's trail is not in this one.
    expect(
      (await call('owner', 'GET', '/audit')).json.items.every((e: { action: string }) => e.action !== 'report.kept'),
    ).toBe(true);
  });
});
