// Operator API for Google's product review feed (docs/operator-api.md):
//   GET  /admin/api/webshops/{id}/google-feed        {url, key, last_fetched_at}; the key is created on first need
//   POST /admin/api/webshops/{id}/google-feed/key    a new key; the old one stops working at once (audited, never the key)
import type Router from '@koa/router';
import type { Context } from 'koa';
import { requireAdmin } from '../admin/auth.js';
import { OPERATOR } from '../audit/changes.js';
import { HttpError } from '../http/errors.js';
import { idParam } from '../http/validate.js';
import type { Services } from '../services.js';
import type { Webshop } from '../webshops/model.js';
import { feedAccess, rotateFeedKey } from './google-service.js';

export function registerGoogleFeedAdminRoutes(router: Router, services: Services): void {
  const { config, feedKeys, webshops } = services;
  const admin = requireAdmin(config.adminToken);

  const shopOf = async (ctx: Context): Promise<Webshop> => {
    const shop = await webshops.get(idParam(ctx.params.id, 'webshop'));
    if (!shop) throw new HttpError(404, 'No such webshop.');
    return shop;
  };

  router.get('/admin/api/webshops/:id/google-feed', admin, async (ctx) => {
    const shop = await shopOf(ctx);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = feedAccess(config.baseUrl, shop.id, await feedKeys.keyOf(shop.id));
  });

  router.post('/admin/api/webshops/:id/google-feed/key', admin, async (ctx) => {
    const shop = await shopOf(ctx);
    const access = await rotateFeedKey(services, shop.id);
    await services.audit.record({ shopId: shop.id, actor: OPERATOR, action: 'google_feed.key_rotated' });
    ctx.set('Cache-Control', 'no-store');
    ctx.body = access;
  });
}
