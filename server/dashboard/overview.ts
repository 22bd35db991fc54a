// The dashboard's overview page API (issue 10, page 1): GET /dashboard/api/shops/:shopId/overview, the shop's score
// out of 10 and count (as ratings_summary.json), the last 12 months' score and count, the 1–5 distribution,
// sub-score averages and the share of published reviews answered. Computed from the reviews view (review-view.ts):
// no query but the shop's change counter once the view is held.
import type Router from '@koa/router';
import type { Services } from '../services.js';
import { shopGuard } from './input.js';
import { signedIn } from './reviews.js';
import { starTable } from '../compliance/counters.js';
import { twelveMonthsBefore } from '../policy/numbers.js';
import { formatDate } from '../time.js';

export function registerDashboardOverviewRoutes(
  router: Router,
  services: Pick<
    Services,
    | 'audit'
    | 'compliance'
    | 'config'
    | 'log'
    | 'now'
    | 'outbox'
    | 'reviewView'
    | 'scheduler'
    | 'sessions'
    | 'signInLinks'
    | 'teamInvitations'
    | 'users'
    | 'webshops'
  >,
): void {
  const view = services.reviewView;
  router.get('/dashboard/api/shops/:shopId/overview', ...shopGuard(services)('read'), async (ctx) => {
    const { shop } = signedIn(ctx);
    ctx.set('Cache-Control', 'no-store');
    const now = services.now();
    const since = twelveMonthsBefore(now);
    const [overview, counts] = await Promise.all([
      view.overview(shop.id, now, services.config.scorePolicy),
      services.compliance.ofShop(shop.id, formatDate(since), formatDate(now)),
    ]);
    ctx.body = { ...overview, stars: starTable(counts) };
  });
}
