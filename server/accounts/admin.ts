// The operator's side of the dashboard's teams, with the same service and rules as the owners' (routes.ts):
//   POST /admin/api/webshops/{id}/users {email, role, language?}   add a user (e-mails a sign-in link) → 201
//   GET /admin/api/webshops/{id}/users                             the team
//   PATCH /admin/api/webshops/{id}/users/{userId} {role}           change a role (409 last_owner)
//   DELETE /admin/api/webshops/{id}/users/{userId}                 remove from the team (409 last_owner) → 204
import type Router from '@koa/router';
import { requireAdmin } from '../admin/auth.js';
import type { AuditActor } from '../audit/model.js';
import { readFields } from '../http/body.js';
import { idParam, validate } from '../http/validate.js';
import { addUserSchema, patchUserSchema } from './input.js';
import { teamMemberJson } from './routes.js';
import { addTeamMember, changeTeamRole, listTeam, removeTeamMember } from './service.js';
import { requireWebshop } from '../webshops/service.js';
import type { AccountDeps } from './service.js';

const JSON_LIMIT = 16 * 1024;
const OPERATOR: AuditActor = { kind: 'operator' };

export function registerAccountAdminRoutes(router: Router, services: AccountDeps): void {
  const admin = requireAdmin(services.config.adminToken);
  const base = '/admin/api/webshops/:id/users';

  const existingShop = async (id: string | undefined): Promise<number> => {
    const shopId = idParam(id, 'webshop');
    await requireWebshop(services, shopId);
    return shopId;
  };

  router.get(base, admin, async (ctx) => {
    const shopId = await existingShop(ctx.params.id);
    ctx.body = { users: (await listTeam(services, shopId)).map((m) => teamMemberJson(shopId, m)) };
  });

  router.post(base, admin, async (ctx) => {
    const shopId = await existingShop(ctx.params.id);
    const input = validate(addUserSchema, await readFields(ctx, JSON_LIMIT));
    ctx.status = 201;
    ctx.body = teamMemberJson(shopId, await addTeamMember(services, shopId, input, OPERATOR));
  });

  router.patch(`${base}/:userId`, admin, async (ctx) => {
    const shopId = await existingShop(ctx.params.id);
    const userId = idParam(ctx.params.userId, 'user');
    const { role } = validate(patchUserSchema, await readFields(ctx, JSON_LIMIT));
    ctx.body = teamMemberJson(shopId, await changeTeamRole(services, shopId, userId, role, OPERATOR));
  });

  router.delete(`${base}/:userId`, admin, async (ctx) => {
    const shopId = await existingShop(ctx.params.id);
    await removeTeamMember(services, shopId, idParam(ctx.params.userId, 'user'), OPERATOR);
    ctx.status = 204;
  });
}
