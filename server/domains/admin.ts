// The operator API for the tokens of GET /webshops/fetch_domain.json (routes.ts): issue and revoke. Both are in the
// service-wide audit trail, the token named by the start of its hash (as stored), never by itself.
import type Router from '@koa/router';
import { z } from 'zod';
import { requireAdmin } from '../admin/auth.js';
import { recordOperatorAction } from '../audit/service.js';
import { sha256Hex } from '../hash.js';
import { readFields } from '../http/body.js';
import { HttpError } from '../http/errors.js';
import { validate } from '../http/validate.js';
import type { Services } from '../services.js';

const TOKEN_BODY_LIMIT = 16 * 1024;

/** Enough of the stored hash to tell tokens apart in the trail; it says nothing about the token. */
const tokenRef = (token: string) => `domain_token:${sha256Hex(token).slice(0, 12)}`;

export const issueSchema = z
  .object({ label: z.string().trim().max(200) })
  .partial()
  .strict();

export function registerDomainAdminRoutes(
  router: Router,
  services: Pick<Services, 'audit' | 'config' | 'domainTokens'>,
): void {
  const { domainTokens, config } = services;
  const admin = requireAdmin(config.adminToken);

  router.post('/admin/api/tokens', admin, async (ctx) => {
    const input = validate(issueSchema, await readFields(ctx, TOKEN_BODY_LIMIT));
    const token = await domainTokens.issue(input.label ?? '');
    await recordOperatorAction(services, {
      shopId: null,
      action: 'domain_token.issued',
      target: tokenRef(token),
    });
    ctx.status = 201;
    ctx.body = { token };
  });

  router.delete('/admin/api/tokens/:token', admin, async (ctx) => {
    const token = ctx.params.token ?? '';
    if (!(await domainTokens.revoke(token))) throw new HttpError(404, 'No such token.');
    await recordOperatorAction(services, {
      shopId: null,
      action: 'domain_token.revoked',
      target: tokenRef(token),
    });
    ctx.status = 204;
  });
}
