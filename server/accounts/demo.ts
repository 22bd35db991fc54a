// The demo shop's owner, for newcomers: every development start prints a fresh sign-in link for them, so the
// dashboard is one click away. Development only (main.ts checks): in production nobody is made owner of anything.
import type { Services } from '../services.js';
import { createSignInLink } from './service.js';

export const DEMO_OWNER_EMAIL = 'demo-owner@example.com';

/** Makes the demo owner the shop's owner if they are not in its team (kept as they are otherwise); a new link. */
export async function demoOwnerSignInLink(services: Services, shopId: number): Promise<string> {
  const user = await services.users.findOrCreate(DEMO_OWNER_EMAIL);
  if (!user.roles[String(shopId)]) await services.users.withTeamLock(shopId, () => services.users.setRole(user.id, shopId, 'owner'));
  return createSignInLink(services, user.id);
}
