// The operator API for the tokens of GET /webshops/fetch_domain.json (routes.ts): issue and revoke.
import type Router from '@koa/router';
import { z } from 'zod';
import { requireAdmin } from '../admin/auth.js';
import { readFields } from '../http/body.js';
import { HttpError } from '../http/errors.js';
import { validate } from '../http/validate.js';
import type { Services } from '../services.js';

const TOKEN_BODY_LIMIT = 16 * 1024;

export const issueSchema = z.object({ label: z.string().trim().max(200) }).partial().strict();

export function registerDomainAdminRoutes(router: Router, services: Services): void {
  const { domainTokens, config } = services;
  const admin = requireAdmin(config.adminToken);

  router.post('/admin/api/tokens', admin, async (ctx) => {
    const input = validate(issueSchema, await readFields(ctx, TOKEN_BODY_LIMIT));
    ctx.status = 201;
    ctx.body = { token: await domainTokens.issue(input.label ?? '') };
  });

  router.delete('/admin/api/tokens/:token', admin, async (ctx) => {
    if (!(await domainTokens.revoke(ctx.params.token ?? ''))) throw new HttpError(404, 'No such token.');
    ctx.status = 204;
  });
}
