// The demo shop and its owner, for newcomers: every development start prints a fresh sign-in link for the owner, so
// the dashboard is one click away. Development only (main.ts checks): in production nobody is made owner of anything.
import type { Services } from '../services.js';
import { createDemoShop, findDemoShop } from '../webshops/demo.js';
import type { Webshop } from '../webshops/store.js';
import { createSignInLink } from './service.js';

export const DEMO_OWNER_EMAIL = 'demo-owner@example.com';

/** Makes the demo owner the shop's owner if they are not in its team (kept as they are otherwise); a new link. */
export async function demoOwnerSignInLink(services: Services, shopId: number): Promise<string> {
  const user = await services.users.findOrCreate(DEMO_OWNER_EMAIL);
  if (!user.roles[String(shopId)]) await services.users.withTeamLock(shopId, () => services.users.addMember(user.id, shopId, 'owner', { kind: 'system' }));
  return createSignInLink(services, user.id);
}

interface DemoStart {
  /** The demo shop, when this start created it (the first start: there was no shop yet). */
  created: Webshop | null;
  /** A sign-in link for the demo owner, when asked for and there is a demo shop. */
  link: string | null;
}

/** What a development start does for the demo (main.ts prints it); `link`: whether this process prints a link. */
export async function startDemo(services: Services, { link }: { link: boolean }): Promise<DemoStart> {
  const created = (await services.webshops.count()) === 0 ? await createDemoShop(services) : null;
  if (!link) return { created, link: null };
  // At every development start, not only the first: a sign-in link lives 15 minutes.
  const demo = await findDemoShop(services);
  return { created, link: demo ? await demoOwnerSignInLink(services, demo.id) : null };
}
