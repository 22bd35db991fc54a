// The dashboard's overview page API (issue 10, page 1): GET /dashboard/api/shops/:shopId/overview, the shop's score
// out of 10 and count (as ratings_summary.json), the last 12 months' score and count, the 1–5 distribution,
// sub-score averages and the share of published reviews answered. Computed from the reviews view (review-view.ts):
// no query but the shop's change counter once the view is held.
import type Router from '@koa/router';
import type { Services } from '../services.js';
import { shopGuard } from './input.js';
import { signedIn } from './reviews.js';

export function registerDashboardOverviewRoutes(router: Router, services: Services): void {
  const view = services.reviewView;
  router.get('/dashboard/api/shops/:shopId/overview', ...shopGuard(services)('read'), async (ctx) => {
    const { shop } = signedIn(ctx);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await view.overview(shop.id, services.now());
  });
}
