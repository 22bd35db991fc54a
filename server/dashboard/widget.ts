// The dashboard's widget and sidebar page (managers and owners: action `widget`):
//   GET   /dashboard/api/shops/{shopId}/widget   the sidebar settings, the snippets to paste, the configurator's URL
//   PATCH /dashboard/api/shops/{shopId}/widget   change sidebar settings (the keys of embed/shared/settings.ts)
// The settings are the shop's `sidebar` configuration, validated by the operator API's schema (one table for the
// loader, the operator and the dashboard). The snippets are those README's "Embedding" section documents, filled
// with the shop's id; the signature code names the API code `$apiCode` and never contains it (managers may not
// see it).
import type { Widget } from './contract.js';
import type Router from '@koa/router';
import type { Config } from '../config.js';
import { snippetJs } from '../embed/demo.js';
import { HttpError } from '../http/errors.js';
import { sidebarSchema } from '../webshops/admin.js';
import type { Webshop } from '../webshops/model.js';
import { DEFAULTS, mergeSettings, type Settings } from '../../embed/shared/settings.js';
import { changesOf } from '../audit/changes.js';
import { recordMerchantAction } from './audit.js';
import { readBody, shopGuard } from './input.js';
import type { DashboardChangeDeps } from './input.js';

/** The snippets a shop pastes, with its id and the service's address and brand. */
function snippetsFor(config: Pick<Config, 'baseUrl' | 'brand'>, shopId: number) {
  const { baseUrl, brand } = config;
  const elementId = `${brand}_order_completed`;
  const sidebarScript = `<script>\n${snippetJs({ service: baseUrl, shopId, brand, query: new URLSearchParams() })}\n</script>`;
  const orderDataElement = `<script type="application/json" id="${elementId}">
{"webshopId": ${shopId}, "orderNumber": "1001", "email": "jane@example.com", "firstName": "Jane", "inviteDelay": 3,
 "signature": "<hex HMAC-SHA512 keyed with '${shopId}:<API code>' over http_build_query of the five fields in this order>"}
</script>`;
  const phpSignature = `<?php
// $apiCode: your API code (Integration page); keep it on the server, never in the page.
$fields = ['webshopId' => ${shopId}, 'orderNumber' => $orderNumber, 'email' => $email, 'firstName' => $firstName, 'inviteDelay' => 3];
$fields['signature'] = hash_hmac('sha512', http_build_query($fields), "${shopId}:$apiCode");
echo '<script type="application/json" id="${elementId}">' . htmlspecialchars(json_encode($fields)) . '</script>';`;
  return { sidebar_script: sidebarScript, order_data_element: orderDataElement, php_signature: phpSignature };
}

function widgetView(config: Config, shop: Webshop): Widget {
  return {
    settings: mergeSettings(shop.sidebar, {}),
    defaults: DEFAULTS,
    snippets: snippetsFor(config, shop.id),
    configurator_url: `${config.baseUrl}/webshops/widget?id=${shop.id}`,
    // The real sidebar on a sample page (server/embed/preview.ts): the page globals named `${global_prefix}<setting>`
    // in its query override the saved settings, as on a shop's page.
    preview_url: `${config.baseUrl}/webshops/${shop.id}/sidebar-preview`,
    global_prefix: `_${config.brand}_`,
  };
}

export function registerDashboardWidgetRoutes(router: Router, services: DashboardChangeDeps): void {
  const { config, webshops } = services;
  const guard = shopGuard(services);

  router.get('/dashboard/api/shops/:shopId/widget', ...guard('widget'), async (ctx) => {
    ctx.body = widgetView(config, ctx.state.shop as Webshop);
  });

  router.patch('/dashboard/api/shops/:shopId/widget', ...guard('widget'), async (ctx) => {
    const changes = await readBody(ctx, sidebarSchema);
    if (Object.keys(changes).length === 0) throw new HttpError(400, 'body: give at least one setting', 'invalid');
    const { id } = ctx.state.shop as Webshop;
    // Merged into the settings as stored now, past the cache, as the operator API merges them.
    const current = await webshops.getFresh(id);
    if (!current) throw new HttpError(404, 'No such webshop.');
    const shop = await webshops.update(id, { sidebar: { ...current.sidebar, ...changes } as Partial<Settings> });
    if (!shop) throw new HttpError(404, 'No such webshop.');
    const settings = (s: Webshop) => ({ sidebar: mergeSettings(s.sidebar, {}) });
    await recordMerchantAction(services, ctx, 'widget.settings_changed', {
      details: changesOf(settings(current), settings(shop), ['sidebar'], []),
    });
    ctx.body = widgetView(config, shop);
  });
}
