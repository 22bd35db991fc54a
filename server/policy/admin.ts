// The operator's service-wide texts of the review policy page (routes.ts): GET/PUT/DELETE /admin/api/policy-text/{lang}.
// Changes are in the service-wide audit trail (no shop), as changed with their lengths.
import type Router from '@koa/router';
import { z } from 'zod';
import { requireAdmin } from '../admin/auth.js';
import { changesOf } from '../audit/changes.js';
import { recordOperatorAction } from '../audit/service.js';
import { readFields } from '../http/body.js';
import { HttpError } from '../http/errors.js';
import { validate } from '../http/validate.js';
import type { Services } from '../services.js';
import { isPolicyLanguage, OPERATOR_TEXT_FIELDS, type PolicyLanguage } from './strings.js';
import type { PolicyText } from './openapi.js';

const TEXT_MAX = 5_000;
const JSON_LIMIT = 64 * 1024;

export const textSchema = z
  .object(
    Object.fromEntries(OPERATOR_TEXT_FIELDS.map((f) => [f, z.string().trim().min(1).max(TEXT_MAX)])) as Record<
      (typeof OPERATOR_TEXT_FIELDS)[number],
      z.ZodString
    >,
  )
  .strict();

export function registerPolicyAdminRoutes(
  router: Router,
  services: Pick<Services, 'audit' | 'config' | 'policyTexts'>,
): void {
  const texts = services.policyTexts;
  const admin = requireAdmin(services.config.adminToken);

  const langParam = (raw: string | undefined): PolicyLanguage => {
    if (raw && isPolicyLanguage(raw)) return raw;
    throw new HttpError(404, 'No policy text for this language: use en, nl or de.');
  };

  router.get('/admin/api/policy-text/:lang', admin, async (ctx) => {
    const lang = langParam(ctx.params.lang);
    const { text, custom } = await texts.get(lang);
    ctx.body = { lang, custom, ...text } satisfies PolicyText;
  });

  router.put('/admin/api/policy-text/:lang', admin, async (ctx) => {
    const lang = langParam(ctx.params.lang);
    const text = validate(textSchema, await readFields(ctx, JSON_LIMIT));
    const before = await texts.get(lang);
    await texts.put(lang, text);
    const details = changesOf({ ...before.text }, text, OPERATOR_TEXT_FIELDS, 'all');
    await recordOperatorAction(services, {
      shopId: null,
      action: 'policy_text.changed',
      target: `policy_text:${lang}`,
      details,
    });
    ctx.body = { lang, custom: true, ...text } satisfies PolicyText;
  });

  router.delete('/admin/api/policy-text/:lang', admin, async (ctx) => {
    const lang = langParam(ctx.params.lang);
    await texts.reset(lang);
    await recordOperatorAction(services, {
      shopId: null,
      action: 'policy_text.reset',
      target: `policy_text:${lang}`,
    });
    ctx.status = 204;
  });
}
