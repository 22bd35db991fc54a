// The dashboard's account routes:
// - POST /dashboard/api/sign-in-link: e-mail a sign-in link (the same answer whether or not the address has access,
//   and past the address's limits, which only stop the e-mails);
// - GET /dashboard/sign-in/{secret}: the page with the "Sign in" button (uses nothing up); POST /dashboard/sign-in:
//   the button, which uses the link and starts the session; POST /dashboard/sign-in/new: the pages' form for a new link;
// - GET /dashboard/api/me, GET /dashboard/api/sessions, DELETE /dashboard/api/sessions/{id}, POST
//   /dashboard/api/sign-out, POST /dashboard/api/sign-out-everywhere;
// - the team, for owners: GET|POST /dashboard/api/shops/{shopId}/users, PATCH|DELETE …/users/{userId}.
// The session, Origin and CSRF checks of /dashboard/api come from the route table (dashboardApiGuard).
import type Router from '@koa/router';
import type { Context } from 'koa';
import { readFields } from '../http/body.js';
import { clientKey } from '../http/client-key.js';
import { HttpError } from '../http/errors.js';
import { enforceLimit, RateLimiter } from '../http/rate-limit.js';
import { idParam } from '../http/validate.js';
import { normalizeLanguage } from '../languages.js';
import type { AuditActor } from '../audit/model.js';
import {
  addUserSchema,
  newLinkFormSchema,
  parseInput,
  patchUserSchema,
  sessionIdParam,
  signInFormSchema,
  signInLinkSchema,
} from './input.js';
import { accountOf, requireShopRole } from './middleware.js';
import { linkProblemPage, linkSentPage, pageContext, sendPage, signInPage } from './pages.js';
import { clearedSessionCookie, SECRET_FORMAT, sessionCookie } from './rules.js';
import type { Me, Session, TeamUser } from './openapi.js';
import {
  addTeamMember,
  changeTeamRole,
  listTeam,
  liveSessions,
  removeTeamMember,
  requestSignInLink,
  signIn,
  signInLinkState,
  type TeamMember,
} from './service.js';
import { findWebshop } from '../webshops/service.js';
import type { AccountDeps } from './service.js';

const BODY_LIMIT = 16 * 1024;
const WINDOW_MS = 15 * 60_000;
/**
 * Link requests a client may make in 15 minutes, whatever the addresses: no trawling for who has access. Counted
 * per process, as every limit per client address (RATE_LIMIT_PER_IP). The limits per address (shared by every
 * process: SignInLinkStore.takeLinkPlace) only decide whether an e-mail goes out, never the answer.
 */
export const LINKS_PER_CLIENT = 30;

/** The team as the dashboard and the operator see it (service.ts TeamMember: nothing of other shops). */
export function teamMemberJson(shopId: number, m: TeamMember): TeamUser {
  return {
    id: m.id,
    email: m.email,
    role: m.role,
    added_at: m.addedAt?.toISOString() ?? null,
    added_by: m.addedBy,
    signed_in_since_added: m.signedInSinceAdded,
    shop_id: shopId,
  };
}

const userActor = (ctx: Context): AuditActor => ({ kind: 'user', id: String(accountOf(ctx).user.id) });

export function registerAccountRoutes(router: Router, services: AccountDeps): void {
  const { config } = services;
  const clock = () => services.now().getTime();
  const perClient = new RateLimiter(LINKS_PER_CLIENT, clock, 100_000, WINDOW_MS);
  const emailLanguage = (ctx: Context) =>
    ctx
      .acceptsLanguages()
      .map(normalizeLanguage)
      .find((l) => l !== undefined) ?? 'en';

  /**
   * The limit per client, then the link (or nothing: for an address without access, or past its limits): the
   * caller answers the same.
   */
  function askForLink(ctx: Context, email: string): void {
    enforceLimit(perClient, clientKey(ctx.ip));
    // Not awaited: the answer must not take longer for an address that has access (its look-ups, the places taken,
    // the link written, the SMTP round trip) than for one that has none or is past its limits.
    // The outcome (sent, no_access, limited) tells an operator why a user got no e-mail; never the address.
    requestSignInLink(services, email, emailLanguage(ctx)).then(
      (outcome) => services.log.debug({ outcome }, 'sign-in link asked for'),
      (err: unknown) => services.log.error({ err }, 'sign-in link not made'),
    );
  }

  router.post('/dashboard/api/sign-in-link', async (ctx) => {
    const { email } = parseInput(signInLinkSchema, await readFields(ctx, BODY_LIMIT));
    askForLink(ctx, email);
    ctx.status = 202;
    ctx.body = { status: 'sent' };
  });

  router.get('/dashboard/sign-in/:token', async (ctx) => {
    const p = pageContext(ctx, config.brandName);
    const token = ctx.params.token!;
    // A link that exists gets its button even when used or expired: the press says why it no longer signs in
    // (one place for that answer, and what a scanner sees of the page never changes with its use).
    const state = await signInLinkState(services, token);
    if (state === 'unknown') sendPage(ctx, 404, linkProblemPage(p, state));
    else sendPage(ctx, 200, signInPage(p, token));
  });

  // Login CSRF: another site must not sign a visitor in to an account of its own choosing. A foreign Origin is
  // refused; none at all (an old browser, a script) is let through. The link page is sent with
  // `Referrer-Policy: no-referrer`, under which Chromium posts its form with `Origin: null`: then Fetch Metadata
  // tells our own page (`Sec-Fetch-Site: same-origin`) from a foreign one.
  const ownOrigin = new URL(config.baseUrl).origin;
  const fromOwnPage = (ctx: Context) => {
    const origin = ctx.get('origin');
    const site = ctx.get('sec-fetch-site');
    const own =
      origin === ownOrigin ||
      (origin === 'null' && site === 'same-origin') ||
      (origin === '' && (site === '' || site === 'same-origin'));
    if (!own) throw new HttpError(403, 'This form must be sent from the sign-in page itself.', 'csrf');
  };

  router.post('/dashboard/sign-in', async (ctx) => {
    fromOwnPage(ctx);
    const p = pageContext(ctx, config.brandName);
    const fields = await readFields(ctx, BODY_LIMIT);
    const parsed = signInFormSchema.safeParse(fields);
    const token = parsed.success && SECRET_FORMAT.test(parsed.data.token) ? parsed.data.token : '';
    const result = await signIn(services, token, ctx.get('user-agent'));
    if (!result.ok) {
      sendPage(ctx, result.reason === 'unknown' ? 404 : 410, linkProblemPage(p, result.reason));
      return;
    }
    const { secret, session } = result.session;
    ctx.set(
      'Set-Cookie',
      sessionCookie(config.baseUrl, secret, session.absoluteExpires.getTime() - services.now().getTime()),
    );
    ctx.set('Cache-Control', 'no-store');
    ctx.set('Referrer-Policy', 'no-referrer');
    ctx.status = 303;
    ctx.redirect('/dashboard/');
  });

  router.post('/dashboard/sign-in/new', async (ctx) => {
    fromOwnPage(ctx);
    const p = pageContext(ctx, config.brandName);
    const parsed = newLinkFormSchema.safeParse(await readFields(ctx, BODY_LIMIT));
    if (!parsed.success) {
      sendPage(ctx, 400, linkProblemPage(p, 'unknown'));
      return;
    }
    askForLink(ctx, parsed.data.email);
    sendPage(ctx, 202, linkSentPage(p));
  });

  router.get('/dashboard/api/me', async (ctx) => {
    const account = accountOf(ctx);
    const shops = await Promise.all(
      account.memberships.map(async (m) => {
        const shop = await findWebshop(services, m.shopId);
        return shop && { id: shop.id, name: shop.name, role: m.role };
      }),
    );
    const me: Me = {
      user: account.user,
      shops: shops.filter((s) => s !== null).sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id),
      csrf_token: account.csrf,
      language: null,
    };
    ctx.body = me;
  });

  router.get('/dashboard/api/sessions', async (ctx) => {
    const account = accountOf(ctx);
    const sessions = await liveSessions(services, account.user.id);
    ctx.body = {
      sessions: sessions
        .sort((a, b) => b.lastSeen.getTime() - a.lastSeen.getTime())
        .map(
          (s): Session => ({
            id: s.id,
            created: s.created.toISOString(),
            last_seen: s.lastSeen.toISOString(),
            expires: new Date(Math.min(s.expires.getTime(), s.absoluteExpires.getTime())).toISOString(),
            user_agent: s.userAgent,
            current: s.id === account.sessionId,
          }),
        ),
    };
  });

  router.delete('/dashboard/api/sessions/:sessionId', async (ctx) => {
    const account = accountOf(ctx);
    const parsed = sessionIdParam.safeParse(ctx.params.sessionId);
    if (!parsed.success || !(await services.sessions.revoke(account.user.id, parsed.data)))
      throw new HttpError(404, 'No such session.');
    if (parsed.data === account.sessionId) ctx.set('Set-Cookie', clearedSessionCookie(config.baseUrl));
    ctx.status = 204;
  });

  router.post('/dashboard/api/sign-out', async (ctx) => {
    const account = accountOf(ctx);
    await services.sessions.revoke(account.user.id, account.sessionId);
    ctx.set('Set-Cookie', clearedSessionCookie(config.baseUrl));
    ctx.status = 204;
  });

  router.post('/dashboard/api/sign-out-everywhere', async (ctx) => {
    const account = accountOf(ctx);
    const ended = await services.sessions.revokeAll(account.user.id);
    ctx.set('Set-Cookie', clearedSessionCookie(config.baseUrl));
    ctx.body = { ended };
  });

  // ---- The team (owners) ----------------------------------------------------------------------------------------
  const team = '/dashboard/api/shops/:shopId/users';
  const shopIdOf = (ctx: Context) => idParam(ctx.params.shopId, 'webshop');

  router.get(team, requireShopRole('team'), async (ctx) => {
    const shopId = shopIdOf(ctx);
    ctx.body = { users: (await listTeam(services, shopId)).map((m) => teamMemberJson(shopId, m)) };
  });

  router.post(team, requireShopRole('team'), async (ctx) => {
    const shopId = shopIdOf(ctx);
    const input = parseInput(addUserSchema, await readFields(ctx, BODY_LIMIT));
    const member = await addTeamMember(services, shopId, input, userActor(ctx));
    ctx.status = 201;
    ctx.body = teamMemberJson(shopId, member);
  });

  router.patch(`${team}/:userId`, requireShopRole('team'), async (ctx) => {
    const shopId = shopIdOf(ctx);
    const userId = idParam(ctx.params.userId, 'user');
    const { role } = parseInput(patchUserSchema, await readFields(ctx, BODY_LIMIT));
    ctx.body = teamMemberJson(shopId, await changeTeamRole(services, shopId, userId, role, userActor(ctx)));
  });

  router.delete(`${team}/:userId`, requireShopRole('team'), async (ctx) => {
    const shopId = shopIdOf(ctx);
    await removeTeamMember(services, shopId, idParam(ctx.params.userId, 'user'), userActor(ctx));
    ctx.status = 204;
  });
}
