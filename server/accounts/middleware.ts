// The dashboard's API guard. `dashboardSession` finds the session of the cookie (401 without one) and, on every
// state-changing call, checks that the request comes from the dashboard's own origin and carries the session's
// CSRF token (403). `requireShopRole` then decides, for routes under /dashboard/api/shops/:shopId, whether the
// user belongs to that shop (404 otherwise: no oracle for which shops exist) and whether the role may do the
// action (403). The route table applies dashboardSession to the whole API (dashboardApiGuard), so a route that
// forgets it still refuses strangers.
import type { Context, Middleware } from 'koa';
import { HttpError } from '../http/errors.js';
import { safeEqual } from '../http/credentials.js';
import { routedPath } from '../http/route-path.js';
import { idParam } from '../http/validate.js';
import type { Services } from '../services.js';
import type { Webshop } from '../webshops/model.js';
import { can, type DashboardAction, type Role } from './roles.js';
import { cookieName, readCookie } from './rules.js';
import { sessionOf } from './service.js';
import type { Membership } from './user-store.js';
import type { AccountDeps } from './service.js';

interface DashboardAccount {
  user: { id: number; email: string };
  /** The public id of the session (as GET /dashboard/api/sessions lists it). */
  sessionId: string;
  csrf: string;
  memberships: Membership[];
}

/** Where dashboardSession leaves the shops store for requireShopRole, whose signature takes only the action. */
const SHOPS = 'dashboardShops';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The API paths a visitor without a session may call (in lower case: routedPath). */
const PUBLIC_API = new Set(['/dashboard/api/sign-in-link']);

export function accountOf(ctx: Context): DashboardAccount {
  const account = ctx.state.account as DashboardAccount | undefined;
  if (!account) throw unauthenticated();
  return account;
}

const unauthenticated = () => new HttpError(401, 'Sign in to use the dashboard.', 'unauthenticated');

export function dashboardSession(services: AccountDeps): Middleware {
  const origin = new URL(services.config.baseUrl).origin;
  const name = cookieName(services.config.baseUrl);
  return async (ctx, next) => {
    ctx.state[SHOPS] = services.webshops;
    if (!ctx.state.account) {
      const found = await sessionOf(services, readCookie(ctx.get('cookie'), name));
      if (!found) throw unauthenticated();
      const account: DashboardAccount = {
        user: { id: found.user.id, email: found.user.email },
        sessionId: found.session.id,
        csrf: found.session.csrf,
        memberships: found.memberships,
      };
      ctx.state.account = account;
    }
    if (!SAFE_METHODS.has(ctx.method)) checkOriginAndToken(ctx, origin, (ctx.state.account as DashboardAccount).csrf);
    // Answers hold a user's data: never kept by a shared cache, nor by the browser's back/forward history.
    ctx.set('Cache-Control', 'no-store');
    await next();
  };
}

function checkOriginAndToken(ctx: Context, origin: string, csrf: string): void {
  // Browsers send Origin with every cross-origin request and with same-origin POST, PUT, PATCH and DELETE.
  if (ctx.get('origin') !== origin)
    throw new HttpError(403, 'This request must come from the dashboard itself (Origin).', 'csrf');
  const token = ctx.get('x-csrf-token');
  if (!token || !safeEqual(token, csrf)) throw new HttpError(403, 'Missing or wrong X-CSRF-Token.', 'csrf');
}

/** For the route group: every /dashboard/api path but the public ones needs a session. */
export function dashboardApiGuard(services: AccountDeps): Middleware {
  const session = dashboardSession(services);
  return async (ctx, next) => {
    if (PUBLIC_API.has(routedPath(ctx))) {
      await next();
      return;
    }
    await session(ctx, next);
  };
}

/** The role of the signed-in user in the route's `:shopId`; sets ctx.state.shop and ctx.state.role. */
export function requireShopRole(action: DashboardAction): Middleware {
  return async (ctx, next) => {
    const account = accountOf(ctx);
    const shopId = idParam(ctx.params?.shopId, 'webshop');
    const membership = account.memberships.find((m) => m.shopId === shopId);
    if (!membership) throw new HttpError(404, 'No such webshop.');
    const shops = ctx.state[SHOPS] as Services['webshops'] | undefined;
    const shop: Webshop | null = shops ? await shops.get(shopId) : null;
    if (!shop) throw new HttpError(404, 'No such webshop.');
    if (!can(membership.role, action)) throw forbidden(membership.role, action);
    ctx.state.shop = shop;
    ctx.state.role = membership.role;
    await next();
  };
}

const forbidden = (role: Role, action: DashboardAction) =>
  new HttpError(403, `The role ${role} may not do this (${action.replace('_', ' ')}).`, 'forbidden');
