import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { invitationInput } from '../../test/invitations.js';
import { warmDashboardViews } from './warm-up.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

it('reads the views of the shops whose users signed in, most recent first, and no others', async () => {
  const [used, usedEarlier, unused] = [await t.createShop(), await t.createShop(), await t.createShop()];
  const { users, invitations, reviews } = t.services;
  for (const shop of [used, usedEarlier, unused]) {
    await invitations.add(shop.id, invitationInput(`buyer-${shop.id}@warm.example`, `W-${shop.id}`));
    await reviews.create(shop.id, {
      name: 'Wim',
      email: `buyer-${shop.id}@warm.example`,
      rating: 4,
      language: 'nl',
      comment: 'Fine',
    });
  }
  const add = async (email: string, shopId: number, at: Date) => {
    const user = await users.findOrCreate(email);
    await users.setRole(user.id, shopId, 'manager');
    if (at.getTime()) await users.recordSignIn(user.id, at);
  };
  await add('earlier@warm.example', usedEarlier.id, new Date('2026-01-01T00:00:00Z'));
  await add('recent@warm.example', used.id, new Date('2026-02-01T00:00:00Z'));
  // Added to a team but never signed in: nobody waits for that shop's dashboard.
  await add('never@warm.example', unused.id, new Date(0));
  expect(await users.recentlyUsedShops(10)).toEqual([used.id, usedEarlier.id]);
  expect(await users.recentlyUsedShops(1)).toEqual([used.id]);

  await warmDashboardViews(t.services, t.services.log);
  for (const view of [t.services.reviewView, t.services.invitationView]) {
    expect([used, usedEarlier, unused].map((s) => view.holds(s.id))).toEqual([true, true, false]);
  }
});
