// The dashboard's exports (owners and managers: action `export`; session required, as for all of /dashboard/api):
//   GET /dashboard/api/shops/:shopId/reviews/export?format=csv|json       addresses for owners only
//   GET /dashboard/api/shops/:shopId/invitations/export?format=csv|json   addresses for owners and managers
// A manager's review export keeps the `email` column, empty (null in JSON): managers answer reviews, they do not
// need the writers' addresses; they see invitations' addresses in the invitations list already. Support staff may
// export neither (403). Downloads are plain GETs (a link the browser saves), so the CSRF token cannot be sent: a
// request the browser marks as coming from another site (Sec-Fetch-Site) is refused instead, so that another site
// cannot start exports in a signed-in merchant's name.
import type Router from '@koa/router';
import type { Context } from 'koa';
import { accountOf } from '../accounts/middleware.js';
import type { Role } from '../accounts/roles.js';
import { shopGuard } from '../dashboard/input.js';
import { HttpError } from '../http/errors.js';
import type { Services } from '../services.js';
import type { Webshop } from '../webshops/model.js';
import { answerExport, formatOf } from './answer.js';
import type { Addresses } from './records.js';
import type { ExportKind } from './service.js';

/** Who sees e-mail addresses in which export. */
function addressesFor(role: Role, kind: ExportKind): Addresses {
  if (role === 'owner') return 'included';
  return kind === 'invitations' && role === 'manager' ? 'included' : 'withheld';
}

/** Browsers say where a request comes from; `same-origin` (the dashboard) and `none` (typed, bookmarked) pass. */
function refuseOtherSites(ctx: Context): void {
  const site = ctx.get('sec-fetch-site');
  if (site && site !== 'same-origin' && site !== 'none')
    throw new HttpError(403, 'Exports start from the dashboard itself.', 'csrf');
}

export function registerDashboardExportRoutes(
  router: Router,
  services: Pick<
    Services,
    | 'audit'
    | 'config'
    | 'exportSlots'
    | 'invitations'
    | 'log'
    | 'now'
    | 'outbox'
    | 'reviews'
    | 'scheduler'
    | 'sessions'
    | 'signInLinks'
    | 'teamInvitations'
    | 'users'
    | 'webshops'
  >,
): void {
  const guard = shopGuard(services);
  const exportOf = (kind: ExportKind) => async (ctx: Context) => {
    refuseOtherSites(ctx);
    const format = formatOf(ctx, 'invalid');
    const role = ctx.state.role as Role;
    await answerExport(ctx, services, {
      kind,
      format,
      shop: ctx.state.shop as Webshop,
      addresses: addressesFor(role, kind),
      actor: { kind: 'user', id: String(accountOf(ctx).user.id) },
    });
  };
  router.get('/dashboard/api/shops/:shopId/reviews/export', ...guard('export'), exportOf('reviews'));
  router.get('/dashboard/api/shops/:shopId/invitations/export', ...guard('export'), exportOf('invitations'));
}
