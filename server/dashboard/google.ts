// The dashboard's Google section (owners and managers: action `google`):
//   GET  /dashboard/api/shops/{shopId}/google       the feed's address for Merchant Center, its last fetch, and the
//                                                   readiness figures against Google's thresholds
//   POST /dashboard/api/shops/{shopId}/google/key   a new feed key; the old one stops working at once (audited)
// The figures come from the built feed (feed/google-service.ts), not from a read of the reviews per request.
import type Router from '@koa/router';
import { googleSection, rotateFeedKey } from '../feed/google-service.js';
import type { Services } from '../services.js';
import type { Webshop } from '../webshops/model.js';
import { recordMerchantAction } from './audit.js';
import { shopGuard } from './input.js';

export function registerDashboardGoogleRoutes(
  router: Router,
  services: Pick<
    Services,
    | 'audit'
    | 'config'
    | 'feedKeys'
    | 'googleFeeds'
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
  const guard = shopGuard(services);

  router.get('/dashboard/api/shops/:shopId/google', ...guard('google'), async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await googleSection(services, ctx.state.shop as Webshop);
  });

  router.post('/dashboard/api/shops/:shopId/google/key', ...guard('google'), async (ctx) => {
    const access = await rotateFeedKey(services, (ctx.state.shop as Webshop).id);
    await recordMerchantAction(services, ctx, 'google_feed.key_rotated');
    ctx.set('Cache-Control', 'no-store');
    ctx.body = access;
  });
}
