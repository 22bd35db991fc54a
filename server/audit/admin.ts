// GET /admin/api/audit?webshop=ID&limit=50&before=ISO: the audit trail for the operator, newest first; `before`
// pages back (the `at` of the last entry of the previous page).
import type Router from '@koa/router';
import { z } from 'zod';
import { requireAdmin } from '../admin/auth.js';
import { validate } from '../http/validate.js';
import type { Services } from '../services.js';
import { AUDIT_LIST_MAX, type AuditEntry } from './store.js';
import type { operatorAuditEntry } from './openapi.js';

export const auditQuerySchema = z
  .object({
    webshop: z.coerce.number().int().positive().optional(),
    limit: z.coerce.number().int().min(1).max(AUDIT_LIST_MAX).default(50),
    before: z.iso.datetime({ offset: true }).optional(),
  })
  .strict();

const auditView = (e: AuditEntry): z.infer<typeof operatorAuditEntry> => ({
  id: e.id,
  at: e.at.toISOString(),
  webshop_id: e.shopId,
  actor: e.actor,
  action: e.action,
  target: e.target,
  details: e.details,
});

export function registerAuditRoutes(router: Router, services: Pick<Services, 'audit' | 'config'>): void {
  router.get('/admin/api/audit', requireAdmin(services.config.adminToken), async (ctx) => {
    const q = validate(auditQuerySchema, ctx.query, 400);
    const entries = await services.audit.list({
      shopId: q.webshop,
      limit: q.limit,
      before: q.before ? new Date(q.before) : undefined,
    });
    ctx.body = { entries: entries.map(auditView) };
  });
}
