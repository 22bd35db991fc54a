// The demo shop and its owner, for newcomers. The first development start (no shop yet) creates the demo shop and
// makes `demo-owner@example.com` its owner, in the audit trail like any team change; every development start prints
// a fresh sign-in link for them while they are in its team, so the dashboard is one click away. Later starts change
// nobody's access: a demo owner removed stays removed. Development only (main.ts checks): in production nobody is
// made owner of anything.
import type { AuditActor } from '../audit/model.js';
import type { Services } from '../services.js';
import { createDemoShop, findDemoShop } from '../webshops/demo.js';
import type { Webshop } from '../webshops/model.js';
import { createSignInLink } from './service.js';
import type { AccountDeps } from './service.js';

export const DEMO_OWNER_EMAIL = 'demo-owner@example.com';

/** The service itself acts at a start: no operator request, no user. */
const SYSTEM: AuditActor = { kind: 'system' };

async function addDemoOwner(services: Pick<Services, 'audit' | 'users'>, shopId: number): Promise<void> {
  const user = await services.users.findOrCreate(DEMO_OWNER_EMAIL);
  await services.users.withTeamLock(shopId, () => services.users.addMember(user.id, shopId, 'owner', SYSTEM));
  await services.audit.record({
    shopId,
    actor: SYSTEM,
    action: 'team.user_added',
    target: `user:${user.id}`,
    details: { role: 'owner' },
  });
}

/** A new link for the demo owner; null when they are no longer in the demo shop's team. */
async function demoOwnerSignInLink(services: AccountDeps, shopId: number): Promise<string | null> {
  const user = await services.users.findByEmail(DEMO_OWNER_EMAIL);
  return user?.roles[String(shopId)] ? createSignInLink(services, user.id) : null;
}

interface DemoStart {
  /** The demo shop, when this start created it (the first start: there was no shop yet). */
  created: Webshop | null;
  /** A sign-in link for the demo owner, when asked for, there is a demo shop and they are in its team. */
  link: string | null;
}

/** What a development start does for the demo (main.ts prints it); `link`: whether this process prints a link. */
export async function startDemo(services: AccountDeps, { link }: { link: boolean }): Promise<DemoStart> {
  let created: Webshop | null = null;
  if ((await services.webshops.count()) === 0) {
    created = await createDemoShop(services);
    await addDemoOwner(services, created.id);
  }
  if (!link) return { created, link: null };
  // At every development start, not only the first: a sign-in link lives 15 minutes.
  const demo = await findDemoShop(services);
  return { created, link: demo ? await demoOwnerSignInLink(services, demo.id) : null };
}
