// Operator API for Google's product review feed (docs/operator-api.md):
//   GET  /admin/api/webshops/{id}/google-feed        {url, key, last_fetched_at}; the key is created on first need
//   POST /admin/api/webshops/{id}/google-feed/key    a new key; the old one stops working at once (audited, never the key)
import type Router from '@koa/router';
import type { Context } from 'koa';
import { requireAdmin } from '../admin/auth.js';
import { recordOperatorAction } from '../audit/service.js';
import { idParam } from '../http/validate.js';
import type { Services } from '../services.js';
import type { Webshop } from '../webshops/model.js';
import { feedAccess, rotateFeedKey } from './google-service.js';
import { requireWebshop } from '../webshops/service.js';

export function registerGoogleFeedAdminRoutes(
  router: Router,
  services: Pick<Services, 'audit' | 'config' | 'feedKeys' | 'webshops'>,
): void {
  const { config, feedKeys } = services;
  const admin = requireAdmin(config.adminToken);

  const shopOf = async (ctx: Context): Promise<Webshop> => {
    return requireWebshop(services, idParam(ctx.params.id, 'webshop'));
  };

  router.get('/admin/api/webshops/:id/google-feed', admin, async (ctx) => {
    const shop = await shopOf(ctx);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = feedAccess(config.baseUrl, shop.id, await feedKeys.keyOf(shop.id));
  });

  router.post('/admin/api/webshops/:id/google-feed/key', admin, async (ctx) => {
    const shop = await shopOf(ctx);
    const access = await rotateFeedKey(services, shop.id);
    await recordOperatorAction(services, { shopId: shop.id, action: 'google_feed.key_rotated' });
    ctx.set('Cache-Control', 'no-store');
    ctx.body = access;
  });
}
