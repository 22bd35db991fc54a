// Operator API (operator token; errors `{error:{code,message}}`):
//   GET /admin/api/webshops/:id/reviews/export?format=csv|json       every review of the shop, addresses included
//   GET /admin/api/webshops/:id/invitations/export?format=csv|json   every invitation of the shop, addresses included
// The file is streamed (service.ts); one export per shop at a time (429 `export_running` otherwise); audited.
import type Router from '@koa/router';
import type { Context } from 'koa';
import { requireAdmin } from '../admin/auth.js';
import { idParam } from '../http/validate.js';
import type { Services } from '../services.js';
import { answerExport, formatOf } from './answer.js';
import type { ExportKind } from './service.js';
import { requireWebshop } from '../webshops/service.js';

export function registerExportAdminRoutes(
  router: Router,
  services: Pick<Services, 'audit' | 'config' | 'exportSlots' | 'invitations' | 'log' | 'now' | 'reviews' | 'webshops'>,
): void {
  const admin = requireAdmin(services.config.adminToken);
  const exportOf = (kind: ExportKind) => async (ctx: Context) => {
    const shopId = idParam(ctx.params.id, 'webshop');
    const format = formatOf(ctx, 'bad_request');
    const shop = await requireWebshop(services, shopId);
    await answerExport(ctx, services, { kind, format, shop, addresses: 'included', actor: { kind: 'operator' } });
  };
  router.get('/admin/api/webshops/:id/reviews/export', admin, exportOf('reviews'));
  router.get('/admin/api/webshops/:id/invitations/export', admin, exportOf('invitations'));
}
