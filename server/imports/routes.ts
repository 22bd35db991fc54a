// The merchant dashboard's bulk import routes (owner and manager; the session, Origin and CSRF checks are applied to
// all of /dashboard/api/ by server/routes.ts):
//   POST /dashboard/api/shops/{shopId}/imports              multipart `file` (+ `format`, `date_order`, `dry_run`, `reply_authors`)
//   GET  /dashboard/api/shops/{shopId}/imports              the shop's imports
//   GET  /dashboard/api/shops/{shopId}/imports/{importId}   one import's status and counts
// An import from the dashboard waits for the operator's approval while IMPORT_APPROVAL=operator (service.ts).
import type Router from '@koa/router';
import { accountOf, dashboardSession, requireShopRole } from '../accounts/middleware.js';
import { listTeam } from '../accounts/service.js';
import { HttpError } from '../http/errors.js';
import type { Services } from '../services.js';
import type { Webshop } from '../webshops/model.js';
import { importView, receiveImport } from './admin.js';

export function registerImportDashboardRoutes(
  router: Router,
  services: Pick<
    Services,
    | 'audit'
    | 'config'
    | 'imports'
    | 'log'
    | 'now'
    | 'outbox'
    | 'scheduler'
    | 'sessions'
    | 'signInLinks'
    | 'teamInvitations'
    | 'users'
    | 'webshops'
  >,
): void {
  const guard = [dashboardSession(services), requireShopRole('import')];
  const shopOf = (state: Record<string, unknown>) => state.shop as Webshop;

  router.post('/dashboard/api/shops/:shopId/imports', ...guard, async (ctx) => {
    const user = accountOf(ctx).user;
    await receiveImport(ctx, services, shopOf(ctx.state).id, { kind: 'user', id: String(user.id) });
  });

  router.get('/dashboard/api/shops/:shopId/imports', ...guard, async (ctx) => {
    const shopId = shopOf(ctx.state).id;
    // Who started each import, as the team page names them: by address.
    const team = new Map((await listTeam(services, shopId)).map((m) => [`user:${m.id}`, m.email]));
    ctx.body = {
      imports: (await services.imports.list(shopId)).map((doc) => {
        const view = importView(doc);
        return { ...view, by_email: team.get(view.by) ?? null };
      }),
    };
  });

  router.get('/dashboard/api/shops/:shopId/imports/:importId', ...guard, async (ctx) => {
    const doc = await services.imports.get(shopOf(ctx.state).id, ctx.params.importId ?? '');
    if (!doc) throw new HttpError(404, 'No such import.');
    ctx.body = importView(doc);
  });
}
