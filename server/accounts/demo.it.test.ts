// The demo shop's owner at development starts: made owner on the first start only (the one that creates the demo
// shop), with an audit entry; later starts print a link and change nobody's access.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { DEMO_OWNER_EMAIL, startDemo } from './demo.js';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
});

const start = () => startDemo(t.services, { link: true });
const teamOf = async (shopId: number) =>
  (
    (await (await t.admin(`/admin/api/webshops/${shopId}/users`)).json()) as {
      users: { id: number; email: string; role: string }[];
    }
  ).users;
const ownerAdded = async (shopId: number) =>
  (await t.services.audit.list({ shopId, limit: 50 })).filter((e) => e.action === 'team.user_added');

describe('development starts', () => {
  it('the first start adds the demo owner once, with one audit entry; a second start adds nothing', async () => {
    const first = await start();
    const shop = first.created!;
    expect(shop).not.toBeNull();
    expect(first.link).toMatch(/\/dashboard\/sign-in\/[A-Za-z0-9_-]{43}$/);
    const owner = await t.services.users.findByEmail(DEMO_OWNER_EMAIL);
    expect((await teamOf(shop.id)).map((u) => [u.email, u.role])).toEqual([[DEMO_OWNER_EMAIL, 'owner']]);
    const entries = await ownerAdded(shop.id);
    expect(entries.map((e) => [e.actor, e.target, e.details])).toEqual([
      [{ kind: 'system' }, `user:${owner!.id}`, { role: 'owner' }],
    ]);

    const second = await start();
    expect(second.created).toBeNull();
    expect(second.link).toMatch(/\/dashboard\/sign-in\//);
    expect(second.link).not.toBe(first.link);
    expect(await ownerAdded(shop.id)).toHaveLength(1);
    expect(await teamOf(shop.id)).toHaveLength(1);
  });

  it('a demo owner removed from the demo shop stays removed at the next start (and gets no link)', async () => {
    const shop = (await t.services.webshops.get((await t.services.webshops.demoShopId())!))!;
    const demoOwner = (await t.services.users.findByEmail(DEMO_OWNER_EMAIL))!;
    const added = await t.admin(`/admin/api/webshops/${shop.id}/users`, {
      method: 'POST',
      json: { email: 'real-owner@demo.example', role: 'owner' },
    });
    expect(added.status).toBe(201);
    expect((await t.admin(`/admin/api/webshops/${shop.id}/users/${demoOwner.id}`, { method: 'DELETE' })).status).toBe(
      204,
    );

    const again = await start();
    expect(again).toEqual({ created: null, link: null });
    expect((await teamOf(shop.id)).map((u) => u.email)).toEqual(['real-owner@demo.example']);
    expect((await ownerAdded(shop.id)).map((e) => e.actor.kind)).toEqual(['operator', 'system']);
  });
});
