// GET /api/2.0/order_permissions.json: may the shop send an invitation for this order (Privacy First flow)?
// Unlike the 1.0 endpoints, errors here are real HTTP errors: a 200 without `has_consent` crashes one plugin.
// Asked with an order number only, it cannot tell whose unsigned receipt it is: plugins that print no signature
// depend on those counting, so they do, unless the shop requires signed order data (rules.ts hasConsent).
import type Router from '@koa/router';
import { classic, MESSAGES } from '../http/classic.js';
import { HttpError } from '../http/errors.js';
import type { Services } from '../services.js';
import { requiresSignedOrderData } from '../webshops/rules.js';
import { hasConsent } from './rules.js';
import type { orderPermission } from './openapi.js';
import type { z } from 'zod';

export function registerConsentRoutes(
  router: Router,
  services: Pick<Services, 'consents' | 'shopLimiter' | 'webshops'>,
): void {
  router.get(
    '/api/2.0/order_permissions.json',
    async (ctx, next) => {
      // An unexpected failure must not look like an answer either (the classic default is HTTP 200).
      ctx.state.unexpectedStatus = 500;
      await next();
    },
    classic(
      services,
      { empty: {}, unauthorized: { status: 401, missingStatus: 400 } },
      async (ctx, { shop, params }) => {
        const raw = params.orderNumber;
        if (raw !== undefined && typeof raw !== 'string') {
          throw new HttpError(400, 'The parameter orderNumber must be a single text value.');
        }
        const order = raw?.trim() ?? '';
        if (!order) throw new HttpError(400, MESSAGES.missing);
        const receipts = await services.consents.forOrder(shop.id, order);
        // Set directly: the answer is the bare object, without the classic `status`/`message`.
        const answer: z.infer<typeof orderPermission> = {
          has_consent: hasConsent(receipts, requiresSignedOrderData(shop)),
        };
        ctx.body = answer;
        return {};
      },
    ),
  );
}
