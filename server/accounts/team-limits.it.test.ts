// Adding team members e-mails them: at most 20 additions per shop and 3 per address per UTC day, counted in every
// process (owners get a 429 naming the limit; nothing is written or sent). A user nobody ever signed in as, who
// belongs to no shop, goes 30 days after being added, by a due entry written with them (not a scan of the users).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { startSmtpSink, type SmtpSink } from '../../test/smtp-sink.js';
import type { Webshop } from '../webshops/store.js';
import { cleanUpAccounts } from './jobs.js';
import { signedInAgent, type TestSession } from './test-session.js';

let t: TestApp;
let sink: SmtpSink;
let clock = new Date('2026-03-02T09:00:00Z');
const DAY = 86_400_000;
const advance = (ms: number) => (clock = new Date(clock.getTime() + ms));

beforeAll(async () => {
  sink = await startSmtpSink();
  t = await startTestApp({ SMTP_URL: sink.url }, { now: () => clock });
  // The worker's outbox drain sends the e-mails.
  await t.services.scheduler.start();
});
afterAll(async () => {
  await t.services.scheduler.stop();
  t.services.mailer.close();
  await t.close();
  await sink.close();
});

async function shopWithOwner(name: string): Promise<{ shop: Webshop; owner: TestSession }> {
  const shop = await t.createShop({ name });
  return {
    shop,
    owner: await signedInAgent(t, { email: `owner@${shop.id}.limits.example`, shopId: shop.id, role: 'owner' }),
  };
}

const add = (s: TestSession, shop: Webshop, email: string) =>
  t.fetch(`/dashboard/api/shops/${shop.id}/users`, {
    method: 'POST',
    headers: { ...s.headers, 'content-type': 'application/json' },
    body: JSON.stringify({ email, role: 'support' }),
  });
const remove = (shop: Webshop, userId: number) =>
  t.admin(`/admin/api/webshops/${shop.id}/users/${userId}`, { method: 'DELETE' });

/** Waits until `marker` got its e-mail: sent after the ones before it, so what they would have sent is in too. */
async function mailsSettled(s: TestSession, shop: Webshop, marker: string): Promise<void> {
  expect((await add(s, shop, marker)).status).toBe(201);
  await sink.waitFor((k) => k.to(marker).length === 1, 60_000);
}

describe('team invitation limits', () => {
  it('a shop adds 20 users a day; the 21st is refused (429 naming the limit), nobody is made and nothing sent', async () => {
    const { shop, owner } = await shopWithOwner('Busy');
    for (let i = 1; i <= 20; i++)
      expect((await add(owner, shop, `invite${i}@busy.example`)).status, `addition ${i}`).toBe(201);
    const refused = await add(owner, shop, 'extra@busy.example');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe(String(15 * 3600));
    const { error } = await refused.json();
    expect(error.code).toBe('shop_invitations_limit');
    expect(error.message).toMatch(/20 users a day/);
    expect(await t.services.users.findByEmail('extra@busy.example')).toBeNull();

    // The operator is not held by an owner's limit; their addition's e-mail comes after any the refusal made.
    const marker = 'marker@busy.example';
    expect(
      (
        await t.admin(`/admin/api/webshops/${shop.id}/users`, {
          method: 'POST',
          json: { email: marker, role: 'support' },
        })
      ).status,
    ).toBe(201);
    await sink.waitFor((k) => k.to(marker).length === 1, 60_000);
    expect(sink.to('extra@busy.example')).toHaveLength(0);

    advance(DAY);
    expect((await add(owner, shop, 'extra@busy.example')).status).toBe(201);
  });

  it('an address is added 3 times a day, by whichever shops; the 4th is refused and sends no e-mail', async () => {
    const shops = await Promise.all(['One', 'Two', 'Three', 'Four'].map(shopWithOwner));
    const address = 'popular@person.example';
    for (const { shop, owner } of shops.slice(0, 3)) expect((await add(owner, shop, address)).status).toBe(201);
    const { shop, owner } = shops[3]!;
    const refused = await add(owner, shop, 'Popular@Person.example');
    expect(refused.status).toBe(429);
    const { error } = await refused.json();
    expect(error.code).toBe('address_invitations_limit');
    expect(error.message).toMatch(/3 team invitations a day/);
    const team = await (await t.admin(`/admin/api/webshops/${shop.id}/users`)).json();
    expect(team.users.map((u: { email: string }) => u.email)).not.toContain(address);
    await mailsSettled(owner, shop, 'someone-else@person.example');
    expect(sink.to(address)).toHaveLength(3);
  });
});

describe('users nobody signed in as', () => {
  it('are removed 30 days after being added when they belong to no shop; one who signed in, or has a shop, stays', async () => {
    const { shop, owner } = await shopWithOwner('Tidy');
    const ids: Record<string, number> = {};
    for (const name of ['gone', 'active', 'staying'])
      ids[name] = (await (await add(owner, shop, `${name}@tidy.example`)).json()).id;
    await t.services.users.recordSignIn(ids.active!, clock);
    expect((await remove(shop, ids.gone!)).status).toBe(204);
    expect((await remove(shop, ids.active!)).status).toBe(204);

    advance(29 * DAY);
    await cleanUpAccounts(t.services);
    for (const name of ['gone', 'active', 'staying'])
      expect(await t.services.users.get(ids[name]!), name).not.toBeNull();

    advance(DAY + 60_000);
    await cleanUpAccounts(t.services);
    expect(await t.services.users.get(ids.gone!)).toBeNull();
    expect(await t.services.users.findByEmail('gone@tidy.example')).toBeNull();
    expect(await t.services.users.get(ids.active!)).not.toBeNull();
    expect(await t.services.users.get(ids.staying!)).not.toBeNull();

    // Added again (by the owner, signed in anew after a month): a new user, listed as any other.
    const back = await signedInAgent(t, { email: `owner@${shop.id}.limits.example`, shopId: shop.id, role: 'owner' });
    const againRes = await add(back, shop, 'gone@tidy.example');
    const again = await againRes.json();
    expect(againRes.status, JSON.stringify(again)).toBe(201);
    expect(again.id).not.toBe(ids.gone);
    const team = await (await t.admin(`/admin/api/webshops/${shop.id}/users`)).json();
    expect(team.users.map((u: { email: string }) => u.email)).toContain('gone@tidy.example');

    // The one who stayed, removed later, goes 30 days after that: their entry is written again when they leave.
    expect((await remove(shop, ids.staying!)).status).toBe(204);
    advance(30 * DAY + 60_000);
    await cleanUpAccounts(t.services);
    expect(await t.services.users.get(ids.staying!)).toBeNull();
    expect(await t.services.users.get(ids.active!)).not.toBeNull();
  });

  it('one added to a shop while the clean-up looks keeps their record and address', async () => {
    const { shop, owner } = await shopWithOwner('Race');
    const id = (await (await add(owner, shop, 'late@race.example')).json()).id;
    // The user as the clean-up read them just before the addition.
    const seen = { ...(await t.services.users.get(id))!, roles: {} };
    expect(await t.services.users.removeUnused(seen)).toBe(false);
    expect(await t.services.users.findByEmail('late@race.example')).toMatchObject({
      id,
      roles: { [shop.id]: 'support' },
    });
  });
});
