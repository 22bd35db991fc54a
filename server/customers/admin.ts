// Operator API: erase a customer's personal data (a GDPR erasure request), in one shop or in all of them. What is
// erased, and how, is erase.ts. The audit trail records the counts, never the address (not even hashed: a hash
// would let anyone holding the address find that it was erased).
import type Router from '@koa/router';
import { z } from 'zod';
import { requireAdmin } from '../admin/auth.js';
import { recordOperatorAction } from '../audit/service.js';
import { validate } from '../http/validate.js';
import { isValidEmail, normalizeEmail } from '../email.js';
import type { Services } from '../services.js';
import { parseId } from '../http/credentials.js';
import { eraseCustomer } from './erase.js';
import type { erasureCounts } from './openapi.js';
import { requireWebshop } from '../webshops/service.js';

export const erasureQuery = z.object({
  email: z.string().transform(normalizeEmail).refine(isValidEmail, 'must be a valid e-mail address'),
  webshop: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === '') return undefined;
      const id = parseId(v);
      if (id === undefined) ctx.addIssue({ code: 'custom', message: 'must be a webshop id (a positive integer)' });
      return id;
    }),
});

export function registerCustomerAdminRoutes(
  router: Router,
  services: Pick<
    Services,
    | 'audit'
    | 'config'
    | 'consents'
    | 'helpful'
    | 'invitations'
    | 'mailer'
    | 'moderation'
    | 'outbox'
    | 'photos'
    | 'popupTokens'
    | 'productReviews'
    | 'reviewEvents'
    | 'reviewMails'
    | 'reviews'
    | 'scheduler'
    | 'webhookDeliveries'
    | 'webshops'
  >,
): void {
  const admin = requireAdmin(services.config.adminToken);

  router.delete('/admin/api/customers', admin, async (ctx) => {
    const { email, webshop } = validate(erasureQuery, { email: ctx.query.email, webshop: ctx.query.webshop });
    if (webshop !== undefined) await requireWebshop(services, webshop);
    const counts = await eraseCustomer(services, { email, shopId: webshop });
    await recordOperatorAction(services, {
      shopId: webshop ?? null,
      action: 'customer.erased',
      details: { ...counts },
    });
    ctx.body = counts satisfies z.infer<typeof erasureCounts>;
  });
}
