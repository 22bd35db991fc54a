// The shop's audit trail in the dashboard, and how dashboard actions are written to it:
//   GET /dashboard/api/shops/{shopId}/audit?page&page_size   the shop's entries, newest first (owners: action `team`)
// The trail is the one of server/audit (moderation decisions, writers' deletions, operator and merchant actions);
// a merchant's action is recorded with the actor `user:<id>` and never an address (the store hashes any that slips in).
import type { DashboardAuditEntry } from './contract.js';
import type Router from '@koa/router';
import type { Context } from 'koa';
import { accountOf } from '../accounts/middleware.js';
import type { AuditEntry } from '../audit/model.js';
import type { Services } from '../services.js';
import { listOf, pageQuery, parseInput, shopGuard } from './input.js';
import type { DashboardChangeDeps } from './input.js';

/** The signed-in user, as the trail names them. */
function userActor(ctx: Context): { kind: 'user'; id: string } {
  return { kind: 'user', id: String(accountOf(ctx).user.id) };
}

/** Records what the signed-in user did to the shop of the route (`ctx.state.shop`). */
export async function recordMerchantAction(
  services: Pick<Services, 'audit'>,
  ctx: Context,
  action: string,
  entry: { target?: string; details?: Record<string, unknown> } = {},
): Promise<void> {
  const shop = ctx.state.shop as { id: number };
  await services.audit.record({ shopId: shop.id, actor: userActor(ctx), action, ...entry });
}

function entryView(e: AuditEntry): DashboardAuditEntry {
  return {
    id: e.id,
    at: e.at.toISOString(),
    actor: e.actor.id === undefined ? e.actor.kind : `${e.actor.kind}:${e.actor.id}`,
    action: e.action,
    target: e.target,
    details: e.details,
  };
}

export function registerDashboardAuditRoutes(router: Router, services: DashboardChangeDeps): void {
  const guard = shopGuard(services);
  router.get('/dashboard/api/shops/:shopId/audit', ...guard('team'), async (ctx) => {
    const q = parseInput(pageQuery, ctx.query);
    const shop = ctx.state.shop as { id: number };
    const { items, total } = await services.audit.page(shop.id, (q.page - 1) * q.page_size, q.page_size);
    ctx.body = listOf(items.map(entryView), total, q);
  });
}
