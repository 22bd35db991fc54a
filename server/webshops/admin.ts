// Operator API for webshops: create, read, change every stored setting, rotate the API code. Every change is in
// the shop's audit trail, which its owners read too.
import type Router from '@koa/router';
import { z } from 'zod';
import { requireAdmin } from '../admin/auth.js';
import { readFields } from '../http/body.js';
import { HttpError } from '../http/errors.js';
import { idParam, validate } from '../http/validate.js';
import { LANGUAGES, LANGUAGE_NAMES } from '../languages.js';
import type { Services } from '../services.js';
import type { Webshop } from './store.js';
import { reminderDays, requiresSignedOrderData } from './rules.js';
import { BOOL, mergeSettings, OFFSET, settingKey, TABLE, type Settings } from '../../embed/shared/settings.js';
import { changesOf } from '../audit/changes.js';
import { recordOperatorAction } from '../audit/service.js';

const JSON_LIMIT = 1024 * 1024;

const httpUrl = z.url({ protocol: /^https?$/ }).max(2000);
const optionalUrl = z.union([httpUrl, z.literal('')]);
const hexColor = z.union([
  z.string().regex(/^#(?:[0-9a-fA-F]{3}){1,2}$/, 'a CSS hex colour such as #1a7f37'),
  z.literal(''),
]);
const text = (max: number) => z.string().trim().max(max);

const address = z
  .object({
    street: text(200),
    housenumber: text(40),
    postalcode: text(20),
    city: text(100),
    country: text(2),
  })
  .partial()
  .strict();

const language = z
  .object({
    iso: z.enum(LANGUAGES),
    name: text(60).optional(),
    url: z.union([httpUrl, z.literal('')]).optional(),
    all: z.boolean().optional(),
    main: z.boolean().optional(),
  })
  .strict();

// The sidebar's dashboard configuration accepts what the page globals accept: one table (embed/shared/settings.ts).
export const sidebarSchema = z
  .object(
    Object.fromEntries(
      TABLE.map(([name, , pattern]) => [
        settingKey(name),
        pattern === BOOL
          ? z.boolean()
          : z
              .string()
              .trim()
              .toLowerCase()
              .regex(
                new RegExp(`^(${pattern})$`),
                pattern === OFFSET ? 'pixels (e.g. 300 or 12.5px) or a percentage (e.g. 40%)' : `one of: ${pattern}`,
              ),
      ]),
    ),
  )
  .partial()
  .strict() as unknown as z.ZodType<Partial<Settings>>;

const settings = {
  name: text(200).min(1),
  url: httpUrl,
  logo: optionalUrl,
  address,
  languages: z.array(language).min(1).max(7),
  hero_color: hexColor,
  hero_image: optionalUrl,
  reply_access: z.boolean(),
  approved_date: z.union([z.iso.date(), z.null()]),
  partner_assurances: z.record(z.string().regex(/^[a-z0-9_.-]{1,60}$/i), z.boolean()),
  sidebar: sidebarSchema.meta({ description: 'the embed dashboard configuration' }),
  require_signed_order_data: z.boolean().meta({
    description:
      'only signed order data records consent: unsigned order-data elements show no dialog, unsigned consents are refused, order_permissions.json ignores unsigned receipts (default false; recommended)',
  }),
  /** Days after the invitation e-mail for its one reminder; 0 turns reminders off. */
  reminder_days: z.number().int().min(0).max(90),
};

export const createSchema = z.object(settings).partial().required({ name: true, url: true }).strict();
export const patchSchema = z.object(settings).partial().strict();

function languagesFrom(input: z.infer<typeof language>[], shopUrl: string): Webshop['languages'] {
  const hasMain = input.some((l) => l.main);
  return input.map((l, i) => ({
    iso: l.iso,
    name: l.name ?? LANGUAGE_NAMES[l.iso],
    url: l.url ?? shopUrl,
    all: l.all ?? false,
    main: l.main ?? (!hasMain && i === 0),
  }));
}

/** The operator's view of a shop: everything stored, including the API code. */
function adminView(shop: Webshop) {
  const { created, updated, ...rest } = shop;
  return {
    ...rest,
    require_signed_order_data: requiresSignedOrderData(shop),
    reminder_days: reminderDays(shop),
    created: created.toISOString(),
    updated: updated.toISOString(),
  };
}

/** The settings a shopper reads as text: the trail says only that they changed (an address may be someone's home). */
const SETTING_TEXTS = ['name', 'url', 'logo', 'hero_image', 'address'];

/** A shop's settings as in force, for the trail to compare: the sidebar with its defaults filled in. */
const inForce = (shop: Webshop) => ({ ...adminView(shop), sidebar: mergeSettings(shop.sidebar, {}) });

export function registerWebshopAdminRoutes(
  router: Router,
  services: Pick<Services, 'audit' | 'config' | 'webshops'>,
): void {
  const { webshops } = services;
  const admin = requireAdmin(services.config.adminToken);

  router.post('/admin/api/webshops', admin, async (ctx) => {
    const input = validate(createSchema, await readFields(ctx, JSON_LIMIT));
    const shop = await webshops.create({
      ...input,
      address: input.address ? { ...input.address } : undefined,
      languages: input.languages ? languagesFrom(input.languages, input.url) : undefined,
      partner_assurances: input.partner_assurances ? { ...input.partner_assurances } : undefined,
    } as Parameters<typeof webshops.create>[0]);
    await recordOperatorAction(services, {
      shopId: shop.id,
      action: 'webshop.created',
      details: { settings: Object.keys(input).sort() },
    });
    ctx.status = 201;
    ctx.body = adminView(shop);
  });

  router.get('/admin/api/webshops/:id', admin, async (ctx) => {
    const shop = await webshops.get(idParam(ctx.params.id, 'webshop'));
    if (!shop) throw new HttpError(404, 'No such webshop.');
    ctx.body = adminView(shop);
  });

  router.patch('/admin/api/webshops/:id', admin, async (ctx) => {
    const id = idParam(ctx.params.id, 'webshop');
    const input = validate(patchSchema, await readFields(ctx, JSON_LIMIT));
    const current = await webshops.getFresh(id);
    if (!current) throw new HttpError(404, 'No such webshop.');
    const changes: Partial<Webshop> = { ...(input as Partial<Webshop>) };
    if (input.address) changes.address = { ...current.address, ...input.address };
    if (input.sidebar) changes.sidebar = { ...current.sidebar, ...input.sidebar } as Webshop['sidebar'];
    if (input.languages) changes.languages = languagesFrom(input.languages, input.url ?? current.url);
    if (input.partner_assurances) changes.partner_assurances = { ...input.partner_assurances };
    const shop = await webshops.update(id, changes);
    if (!shop) throw new HttpError(404, 'No such webshop.');
    const details = changesOf(inForce(current), inForce(shop), Object.keys(input), SETTING_TEXTS);
    if (Object.keys(details).length > 0) {
      await recordOperatorAction(services, { shopId: id, action: 'webshop.settings_changed', details });
    }
    ctx.body = adminView(shop);
  });

  router.post('/admin/api/webshops/:id/code', admin, async (ctx) => {
    const shop = await webshops.rotateCode(idParam(ctx.params.id, 'webshop'));
    if (!shop) throw new HttpError(404, 'No such webshop.');
    // The action the owners' own rotation is recorded as (dashboard/integration.ts), by the operator.
    await recordOperatorAction(services, { shopId: shop.id, action: 'integration.code_rotated' });
    ctx.body = { id: shop.id, code: shop.code };
  });
}
