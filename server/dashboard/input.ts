// Reading the dashboard API's input: zod at the edge, and the dashboard's error shape for it (400 `invalid`, the
// message naming the field). Paging as every dashboard list pages.
import type { Context, Middleware } from 'koa';
import { z } from 'zod';
import { dashboardSession, requireShopRole } from '../accounts/middleware.js';
import type { DashboardAction } from '../accounts/roles.js';
import { readFields } from '../http/body.js';
import { HttpError } from '../http/errors.js';
import { validate } from '../http/validate.js';
import type { Services } from '../services.js';

/** What a dashboard change that is audited and reaches the shop's public data uses of the services. */
export type DashboardChangeDeps = Pick<
  Services,
  | 'audit'
  | 'config'
  | 'log'
  | 'now'
  | 'outbox'
  | 'scheduler'
  | 'sessions'
  | 'signInLinks'
  | 'teamInvitations'
  | 'users'
  | 'webshops'
>;

/** JSON bodies of the dashboard's settings calls are small. */
const BODY_LIMIT = 64 * 1024;

export function parseInput<T>(schema: z.ZodType<T>, input: unknown): T {
  try {
    return validate(schema, input, 400);
  } catch (err) {
    if (err instanceof HttpError) throw new HttpError(400, err.message, 'invalid');
    throw err;
  }
}

export async function readBody<T>(ctx: Context, schema: z.ZodType<T>): Promise<T> {
  return parseInput(schema, await readFields(ctx, BODY_LIMIT));
}

const PAGE_SIZE_MAX = 100;

export const pageQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  page_size: z.coerce.number().int().min(1).max(PAGE_SIZE_MAX).default(20),
});

/** The dashboard's list envelope. */
export function listOf<T>(items: T[], total: number, q: { page: number; page_size: number }) {
  return { items, total, page: q.page, page_size: q.page_size };
}

/**
 * What guards a shop's route: the session (the route group applies it too; a second pass only re-checks the CSRF
 * token), then the user's role in `:shopId`.
 */
export function shopGuard(services: DashboardChangeDeps): (action: DashboardAction) => Middleware[] {
  const session = dashboardSession(services);
  return (action) => [session, requireShopRole(action)];
}
