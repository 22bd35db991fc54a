// GET /admin/api/compliance?from=YYYY-MM-DD&to=YYYY-MM-DD[&webshop=][&format=csv]: the compliance report (issue 21),
// per shop, from the counters kept as things happen (store.ts): the days asked for are read, nothing else.
import type Router from '@koa/router';
import { z } from 'zod';
import { requireAdmin } from '../admin/auth.js';
import { BOM, csvLine } from '../spreadsheet-csv.js';
import { HttpError } from '../http/errors.js';
import { validate } from '../http/validate.js';
import type { Services } from '../services.js';
import { formatDate } from '../time.js';
import { complianceRows, shopCompliance, type ShopCompliance } from './counters.js';
import { requireWebshop } from '../webshops/service.js';

/** The longest range one report reads (a leap year). */
export const COMPLIANCE_MAX_DAYS = 366;

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'a date such as 2026-01-31 (YYYY-MM-DD)')
  .refine((v) => formatDate(new Date(`${v}T00:00:00Z`)) === v, 'a date that exists in the calendar');

export const complianceQuerySchema = z
  .object({
    from: day,
    to: day,
    webshop: z.coerce.number().int().positive().optional(),
    format: z.enum(['json', 'csv']).default('json'),
  })
  .strict();

/** Days from `from` to `to`, both included. */
const daysBetween = (from: string, to: string): number =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;

export function registerComplianceAdminRoutes(
  router: Router,
  services: Pick<Services, 'compliance' | 'config' | 'webshops'>,
): void {
  const admin = requireAdmin(services.config.adminToken);

  router.get('/admin/api/compliance', admin, async (ctx) => {
    const q = validate(complianceQuerySchema, ctx.query);
    const days = daysBetween(q.from, q.to);
    if (days < 1) throw new HttpError(422, 'to: must not be before from', 'validation_failed');
    if (days > COMPLIANCE_MAX_DAYS)
      throw new HttpError(422, `to: at most ${COMPLIANCE_MAX_DAYS} days from from`, 'validation_failed');
    await services.compliance.flush();
    let shops: ShopCompliance[];
    if (q.webshop !== undefined) {
      await requireWebshop(services, q.webshop);
      shops = [shopCompliance(q.webshop, await services.compliance.ofShop(q.webshop, q.from, q.to))];
    } else {
      const byShop = await services.compliance.ofAllShops(q.from, q.to);
      shops = [...byShop.entries()].sort(([a], [b]) => a - b).map(([id, counts]) => shopCompliance(id, counts));
    }
    if (q.format === 'csv') {
      ctx.type = 'text/csv; charset=utf-8';
      ctx.set('Content-Disposition', `attachment; filename="compliance-${q.from}-${q.to}.csv"`);
      ctx.body = BOM + complianceRows(shops).map(csvLine).join('');
      return;
    }
    ctx.body = { from: q.from, to: q.to, webshops: shops };
  });
}
