// The dashboard's integration page:
//   GET    /dashboard/api/shops/{shopId}/integration                 shop id, require_signed_order_data, the plugins
//                                                                   calling Add invitation lately (everyone: `read`)
//   PATCH  /dashboard/api/shops/{shopId}/integration                 {require_signed_order_data}    (owners: `integration`)
//   POST   /dashboard/api/shops/{shopId}/integration/code/reveal     the API code, on request         (owners, audited)
//   POST   /dashboard/api/shops/{shopId}/integration/code/rotate     a new API code; the old one stops at once (owners, audited)
//   GET    /dashboard/api/shops/{shopId}/webhooks?page&page_size     subscriptions with their secrets (owners)
//   POST   /dashboard/api/shops/{shopId}/webhooks                    {url, topic, is_active?}
//   PATCH  /dashboard/api/shops/{shopId}/webhooks/{webhookId}        {url?, topic?, is_active?}
//   DELETE /dashboard/api/shops/{shopId}/webhooks/{webhookId}
//   GET    /dashboard/api/shops/{shopId}/webhooks/{webhookId}/deliveries?page&page_size
//   POST   /dashboard/api/shops/{shopId}/webhooks/{webhookId}/redeliver   {event_id}
// The webhook rules are the classic API's (webhooks/service.ts), the code rotation the operator's
// (WebshopStore.rotateCode). The shop's URL is not here: it decides fetch_domain.json, so it stays the operator's.
import type { DashboardWebhook, Integration } from './contract.js';
import type Router from '@koa/router';
import type { Context } from 'koa';
import { z } from 'zod';
import { HttpError } from '../http/errors.js';
import { idParam } from '../http/validate.js';
import type { Services } from '../services.js';
import { subscribeSchema, patchSchema as webhookPatchSchema } from '../webhooks/routes.js';
import {
  changeSubscription,
  deliveryLog,
  deliveryLogItem,
  isEventId,
  redeliver,
  removeSubscription,
  subscribe,
  subscriptionOf,
} from '../webhooks/service.js';
import type { WebhookSubscription } from '../webhooks/model.js';
import { requiresSignedOrderData } from '../webshops/rules.js';
import type { Webshop } from '../webshops/model.js';
import { recordMerchantAction } from './audit.js';
import { listOf, pageQuery, parseInput, readBody, shopGuard } from './input.js';
import type { InvitationRow } from './invitation-view.js';

/** "Recent" callers: a plugin that stopped calling a quarter ago is no longer installed. */
const CALLERS_DAYS = 90;
/** The newest invitations read for the callers; a shop's plugin shows in far fewer. */
const CALLERS_SCAN = 5000;

type Caller = Pick<InvitationRow, 'client' | 'platform_version' | 'plugin_version' | 'created'>;

/** The distinct plugins (client, platform and plugin version) among these invitations, most recently seen first. */
export function pluginsOf(callers: Caller[]): Integration['plugins'] {
  const byKey = new Map<
    string,
    {
      client: string | null;
      platform_version: string | null;
      plugin_version: string | null;
      last_seen: number;
      invitations: number;
    }
  >();
  for (const c of callers) {
    const key = JSON.stringify([c.client, c.platform_version, c.plugin_version]);
    const seen = byKey.get(key);
    if (seen) {
      seen.invitations++;
      if (c.created > seen.last_seen) seen.last_seen = c.created;
    } else {
      byKey.set(key, {
        client: c.client,
        platform_version: c.platform_version,
        plugin_version: c.plugin_version,
        last_seen: c.created,
        invitations: 1,
      });
    }
  }
  return [...byKey.values()]
    .sort((a, b) => b.last_seen - a.last_seen || b.invitations - a.invitations)
    .map((p) => ({ ...p, last_seen: new Date(p.last_seen).toISOString() }));
}

export const integrationPatchSchema = z
  .object({ require_signed_order_data: z.boolean({ error: 'must be true or false' }) })
  .strict();

export const redeliverSchema = z
  .object({ event_id: z.string().refine(isEventId, 'must be an event id as sent in X-Event-Id, e.g. 12:1') })
  .strict();

function webhookView(s: WebhookSubscription): DashboardWebhook {
  return {
    id: s.id,
    url: s.url,
    topic: s.topic,
    is_active: s.is_active,
    secret: s.secret,
    disabled_reason: s.disabled_reason ?? null,
    created: s.created.toISOString(),
  };
}

const shopOf = (ctx: Context) => ctx.state.shop as Webshop;

export function registerDashboardIntegrationRoutes(
  router: Router,
  services: Pick<
    Services,
    | 'audit'
    | 'config'
    | 'invitationView'
    | 'log'
    | 'now'
    | 'outbox'
    | 'scheduler'
    | 'sessions'
    | 'signInLinks'
    | 'teamInvitations'
    | 'users'
    | 'webhookDeliveries'
    | 'webhooks'
    | 'webshops'
  >,
): void {
  const { webshops } = services;
  const guard = shopGuard(services);
  const owner = guard('integration');

  router.get('/dashboard/api/shops/:shopId/integration', ...guard('read'), async (ctx) => {
    const shop = shopOf(ctx);
    const since = new Date(services.now().getTime() - CALLERS_DAYS * 86_400_000);
    ctx.body = {
      shop_id: shop.id,
      require_signed_order_data: requiresSignedOrderData(shop),
      plugins: pluginsOf(await services.invitationView.newestSince(shop.id, since, CALLERS_SCAN)),
    } satisfies Integration;
  });

  router.patch('/dashboard/api/shops/:shopId/integration', ...owner, async (ctx) => {
    const input = await readBody(ctx, integrationPatchSchema);
    const before = requiresSignedOrderData(shopOf(ctx));
    const shop = await webshops.update(shopOf(ctx).id, { require_signed_order_data: input.require_signed_order_data });
    if (!shop) throw new HttpError(404, 'No such webshop.');
    await recordMerchantAction(services, ctx, 'integration.settings_changed', {
      details: { require_signed_order_data: { from: before, to: requiresSignedOrderData(shop) } },
    });
    ctx.body = { shop_id: shop.id, require_signed_order_data: requiresSignedOrderData(shop) } satisfies Omit<
      Integration,
      'plugins'
    >;
  });

  router.post('/dashboard/api/shops/:shopId/integration/code/reveal', ...owner, async (ctx) => {
    // Read past the cache: a code rotated a moment ago in another process must not be shown as current.
    const shop = await webshops.getFresh(shopOf(ctx).id);
    if (!shop) throw new HttpError(404, 'No such webshop.');
    await recordMerchantAction(services, ctx, 'integration.code_revealed');
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { code: shop.code };
  });

  router.post('/dashboard/api/shops/:shopId/integration/code/rotate', ...owner, async (ctx) => {
    const shop = await webshops.rotateCode(shopOf(ctx).id);
    if (!shop) throw new HttpError(404, 'No such webshop.');
    await recordMerchantAction(services, ctx, 'integration.code_rotated');
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { code: shop.code };
  });

  router.get('/dashboard/api/shops/:shopId/webhooks', ...owner, async (ctx) => {
    const q = parseInput(pageQuery, ctx.query);
    const { items, total } = await services.webhooks.page(shopOf(ctx).id, (q.page - 1) * q.page_size, q.page_size);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = listOf(items.map(webhookView), total, q);
  });

  router.post('/dashboard/api/shops/:shopId/webhooks', ...owner, async (ctx) => {
    const input = await readBody(ctx, subscribeSchema);
    const created = await subscribe(services, shopOf(ctx).id, input, 'on the Integration page');
    await recordMerchantAction(services, ctx, 'webhook.created', {
      target: `webhook:${created.id}`,
      details: { url: created.url, topic: created.topic, is_active: created.is_active },
    });
    ctx.status = 201;
    ctx.body = webhookView(created);
  });

  const subscriptionIn = (ctx: Context) =>
    subscriptionOf(services, shopOf(ctx).id, idParam(ctx.params.webhookId, 'webhook'));

  router.patch('/dashboard/api/shops/:shopId/webhooks/:webhookId', ...owner, async (ctx) => {
    const subscription = await subscriptionIn(ctx);
    const changes = await readBody(ctx, webhookPatchSchema);
    const updated = await changeSubscription(services, subscription, changes);
    await recordMerchantAction(services, ctx, 'webhook.changed', {
      target: `webhook:${updated.id}`,
      details: { ...changes },
    });
    ctx.body = webhookView(updated);
  });

  router.delete('/dashboard/api/shops/:shopId/webhooks/:webhookId', ...owner, async (ctx) => {
    const subscription = await subscriptionIn(ctx);
    await removeSubscription(services, subscription);
    await recordMerchantAction(services, ctx, 'webhook.deleted', {
      target: `webhook:${subscription.id}`,
      details: { url: subscription.url },
    });
    ctx.status = 204;
  });

  router.get('/dashboard/api/shops/:shopId/webhooks/:webhookId/deliveries', ...owner, async (ctx) => {
    const q = parseInput(pageQuery, ctx.query);
    const subscription = await subscriptionIn(ctx);
    const { items, total } = await deliveryLog(services, subscription, (q.page - 1) * q.page_size, q.page_size);
    ctx.body = listOf(
      items.map((e) => deliveryLogItem(e, (at) => at.toISOString())),
      total,
      q,
    );
  });

  router.post('/dashboard/api/shops/:shopId/webhooks/:webhookId/redeliver', ...owner, async (ctx) => {
    const subscription = await subscriptionIn(ctx);
    const { event_id } = await readBody(ctx, redeliverSchema);
    await redeliver(services, subscription, event_id);
    await recordMerchantAction(services, ctx, 'webhook.redelivered', {
      target: `webhook:${subscription.id}`,
      details: { event_id },
    });
    ctx.status = 202;
    ctx.body = { status: 'queued' };
  });
}
