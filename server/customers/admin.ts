// Operator API: erase a customer's personal data (a GDPR erasure request), in one shop or in all of them.
// Reviews stay (the shop's score must not change behind its back) but lose the name and address; invitations,
// consent receipts and review pop-up links exist only for this customer, so they go, and so do the stored bodies
// of webhook deliveries already made for their reviews.
import type Router from '@koa/router';
import { z } from 'zod';
import { requireAdmin } from '../admin/auth.js';
import { HttpError } from '../http/errors.js';
import { validate } from '../http/validate.js';
import { isValidEmail, normalizeEmail, sameAddress } from '../invitations/email.js';
import type { Language } from '../languages.js';
import type { Review } from '../reviews/store.js';
import type { Services } from '../services.js';
import { parseId } from '../http/credentials.js';

/** What an erased reviewer is called, in the review's language (an empty name reads as a broken page). */
export const ANONYMOUS: Record<Language, string> = {
  nl: 'Anoniem',
  en: 'Anonymous',
  de: 'Anonym',
  fr: 'Anonyme',
  es: 'Anónimo',
  it: 'Anonimo',
  hr: 'Anonimno',
};

const query = z.object({
  email: z
    .string()
    .transform(normalizeEmail)
    .refine(isValidEmail, 'must be a valid e-mail address'),
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

export function registerCustomerAdminRoutes(router: Router, services: Services): void {
  const admin = requireAdmin(services.config.adminToken);

  router.delete('/admin/api/customers', admin, async (ctx) => {
    const { email, webshop } = validate(query, { email: ctx.query.email, webshop: ctx.query.webshop });
    if (webshop !== undefined && !(await services.webshops.get(webshop))) throw new HttpError(404, 'No such webshop.');
    const scope = webshop === undefined ? {} : { shopId: webshop };

    const reviews = await services.reviews.collection
      .find({ ...scope, deleted: false, email: sameAddress(email) }, { projection: { _id: 0, id: 1, language: 1 } })
      .toArray();
    let anonymised = 0;
    for (const r of reviews as Pick<Review, 'id' | 'language'>[]) {
      const name = ANONYMOUS[r.language] ?? ANONYMOUS.en;
      // Through the single write path, so webhook subscribers get reviews.updated and caches refresh.
      if (await services.reviews.update(r.id, { name, email: '' })) anonymised++;
    }

    ctx.body = {
      reviews_anonymised: anonymised,
      invitations_deleted: await services.invitations.deleteByEmail(email, webshop),
      consents_deleted: await services.consents.deleteByEmail(email, webshop),
      popup_tokens_deleted: await services.popupTokens.deleteByEmail(email, webshop),
      webhook_deliveries_deleted: await services.webhookDeliveries.forgetReviews(reviews.map((r) => r.id)),
    };
  });
}
