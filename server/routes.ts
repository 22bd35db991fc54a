// The route table of the whole service. A request passes, in order: the app-wide middleware (app.ts: errors,
// access log, nosniff), then the first group below whose paths match (its error envelope, then its middleware),
// then the route of a feature module. Each group is declared with everything that applies to all of its routes;
// what applies to one route (operator token, shop credentials, a limit per pop-up call) is declared at the route.
import cors from '@koa/cors';
import Router from '@koa/router';
import type Koa from 'koa';
import type { Middleware } from 'koa';
import { HttpError, sendError, useEnvelope, type Envelope } from './http/errors.js';
import { byClientAddress } from './http/client-key.js';
import { rateLimit, RateLimiter } from './http/rate-limit.js';
import { routedPath } from './http/route-path.js';
import type { Services } from './services.js';
import { registerCustomerAdminRoutes } from './customers/admin.js';
import { registerDashboardRoutes } from './dashboard/routes.js';
import { dashboardApiGuard } from './accounts/middleware.js';
import { noFraming } from './accounts/pages.js';
import { registerAccountAdminRoutes } from './accounts/admin.js';
import { registerConsentRoutes } from './consents/routes.js';
import { registerDomainRoutes } from './domains/routes.js';
import { registerDomainAdminRoutes } from './domains/admin.js';
import {
  registerEmbedApiRoutes,
  registerEmbedAssetRoutes,
  registerEmbedDemoRoutes,
  registerSidebarPreviewRoute,
} from './embed/routes.js';
import { registerFeedRoutes } from './feed/routes.js';
import { registerInvitationRoutes } from './invitations/routes.js';
import { registerInvitationAdminRoutes } from './invitations/admin.js';
import { registerMailRoutes } from './mail/routes.js';
import { registerModerationRoutes } from './moderation/routes.js';
import { registerModerationAdminRoutes } from './moderation/admin.js';
import { registerAuditRoutes } from './audit/admin.js';
import { registerOpenApiRoutes } from './openapi/routes.js';
import { registerPageRoutes } from './pages/routes.js';
import { registerPhotoRoutes } from './photos/routes.js';
import { registerPhotoAdminRoutes } from './photos/admin.js';
import { registerHelpfulRoutes } from './helpful/routes.js';
import { registerPolicyRoutes } from './policy/routes.js';
import { registerPolicyAdminRoutes } from './policy/admin.js';
import { registerRatingRoutes } from './ratings/routes.js';
import { registerReplyRoutes } from './replies/routes.js';
import { registerReviewAdminRoutes } from './reviews/admin.js';
import { registerImportAdminRoutes } from './imports/admin.js';
import { registerImportDashboardRoutes } from './imports/routes.js';
import { registerWebhookManageRoutes, registerWebhookRoutes } from './webhooks/routes.js';
import { registerWebshopAdminRoutes } from './webshops/admin.js';
import { registerWebshopRoutes } from './webshops/routes.js';
import { registerWidgetRoutes } from './widget/routes.js';
import { registerExportAdminRoutes } from './exports/admin.js';
import { registerDashboardExportRoutes } from './exports/routes.js';
import { registerProductRoutes } from './products/routes.js';
import { registerGoogleFeedRoutes } from './feed/routes.js';
import { registerGoogleFeedAdminRoutes } from './feed/admin.js';
import { registerComplianceAdminRoutes } from './compliance/admin.js';

interface RouteGroup {
  name: string;
  /** Tested against the path in lower case (routedPath), as the router matches paths whatever their case. */
  paths: RegExp;
  /** How errors are answered, including those of middleware and of paths no route matches. */
  envelope: Envelope;
  middleware: Middleware[];
}

const ADMIN: Envelope = { style: 'admin' };

/** The groups of paths, first match first. Every group counts requests against the per-address limit. */
function routeGroups(
  services: Pick<
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
  >,
): RouteGroup[] {
  const perAddress = rateLimit(new RateLimiter(services.config.rateLimit.perIpPerMinute), byClientAddress);
  // Shoppers' browsers call the embed from shops' pages: public data, no credentials, never a cookie. The
  // preflight is answered here; every answer (errors and the per-address 429 included) is readable cross-site.
  const embedCors = cors({
    origin: '*',
    allowMethods: 'GET, POST, OPTIONS',
    allowHeaders: 'Content-Type',
    maxAge: 86400,
  });
  return [
    {
      name: 'classic API, XML (product review feed)',
      paths: /^\/api\/.*\.xml$/,
      envelope: { style: 'xml' },
      middleware: [perAddress],
    },
    // Shop credentials and the per-shop limit are checked per endpoint by classic() (http/classic.ts).
    { name: 'classic API', paths: /^\/api\//, envelope: { style: 'classic' }, middleware: [perAddress] },
    {
      name: 'embed: its API and files',
      paths: /^\/(?:embed\/|sidebar\.js$)/,
      envelope: ADMIN,
      middleware: [embedCors, perAddress],
    },
    // Shop plugins fetch it, some from the browser.
    {
      name: 'rich snippet',
      paths: /^\/webshops\/rich_snippet$/,
      envelope: ADMIN,
      middleware: [cors({ origin: '*', allowMethods: 'GET' }), perAddress],
    },
    // "Helpful" votes, which the product block sends from the shop's own pages and reads the JSON answer of: the
    // answer is CORS-readable (a cross-site vote was possible before as a plain form post; the counts are public).
    {
      name: 'helpful votes',
      paths: /^\/reviews\/\d+\/helpful$/,
      envelope: { style: 'html' },
      middleware: [cors({ origin: '*', allowMethods: 'POST' }), perAddress],
    },
    // Pages people open (widget and configurator, shop and policy pages, review links, unsubscribe, the report
    // form): a 429 or 404 here is a small HTML page, not JSON inside a merchant's iframe.
    {
      name: 'pages',
      paths:
        /^\/(?:webshops\/(?:widget_html|widget|\d+(?:\/policy|\/sidebar-preview|\/reviews\/\d+)?)\/?$|(?:review|edit|confirm|unsubscribe|appeal)\/|reviews\/\d+\/(?:report|helpful)$)/,
      envelope: { style: 'html' },
      middleware: [perAddress],
    },
    // The merchant dashboard, same origin only (no CORS). Its JSON API answers errors like the operator API and
    // needs a session everywhere but sign-in (with Origin and CSRF token on writes: accounts/middleware.ts); its
    // pages (the app's HTML, the sign-in pages) answer errors as a small HTML page, and none may be framed.
    {
      name: 'dashboard API',
      paths: /^\/dashboard\/api(?:\/|$)/,
      envelope: ADMIN,
      middleware: [perAddress, dashboardApiGuard(services)],
    },
    {
      name: 'dashboard pages',
      paths: /^\/dashboard(?:\/|$)/,
      envelope: { style: 'html' },
      middleware: [noFraming(), perAddress],
    },
    // The operator token is required per route (admin/auth.ts requireAdmin).
    { name: 'operator API', paths: /^\/admin\//, envelope: ADMIN, middleware: [perAddress] },
    // The product block's fragment and JSON-LD, read by the shop's pages and plugins (only what the shop page shows).
    {
      name: 'product surfaces',
      paths: /^\/webshops\/\d+\/products\/(?:reviews\.html|jsonld)$/,
      envelope: ADMIN,
      middleware: [cors({ origin: '*', allowMethods: 'GET' }), perAddress],
    },
    { name: 'other public JSON, health, demo, dev outbox', paths: /^/, envelope: ADMIN, middleware: [perAddress] },
  ];
}

type RegisterRoutes = (router: Router, services: Services) => void;

/** The feature route modules; each registers the routes of its feature (paths in its header comment). */
const FEATURE_ROUTES: RegisterRoutes[] = [
  registerHealthRoute,
  // Classic API (/api/…)
  registerWebshopRoutes,
  registerRatingRoutes,
  registerFeedRoutes,
  registerInvitationRoutes,
  registerConsentRoutes,
  registerReplyRoutes,
  registerWebhookRoutes,
  registerOpenApiRoutes,
  // Operator API (/admin/api/…) and the domain look-up
  registerWebshopAdminRoutes,
  registerReviewAdminRoutes,
  registerImportAdminRoutes,
  registerImportDashboardRoutes,
  registerCustomerAdminRoutes,
  registerInvitationAdminRoutes,
  registerWebhookManageRoutes,
  // Dashboard users of a shop (/admin/api/webshops/{id}/users…)
  registerAccountAdminRoutes,
  registerDomainRoutes,
  registerDomainAdminRoutes,
  // Embed, widget and pages
  registerEmbedApiRoutes,
  registerEmbedAssetRoutes,
  registerEmbedDemoRoutes,
  registerSidebarPreviewRoute,
  registerWidgetRoutes,
  registerPageRoutes,
  // Photos of published reviews (/photos/{id}.webp)
  registerPhotoRoutes,
  registerPhotoAdminRoutes,
  // "Helpful" votes on the shop page (/reviews/{id}/helpful)
  registerHelpfulRoutes,
  // The review policy page (/webshops/{id}/policy) and the operator's texts for it
  registerPolicyRoutes,
  registerPolicyAdminRoutes,
  registerMailRoutes,
  // Reporting a review (/reviews/{id}/report) and the operator's report queue (/admin/api/reports…)
  registerModerationRoutes,
  registerModerationAdminRoutes,
  // The audit trail (/admin/api/audit)
  registerAuditRoutes,
  // The merchant dashboard (/dashboard/…): server/dashboard/routes.ts lists its modules
  registerDashboardRoutes,
  // Exports of a shop's reviews and invitations (operator API and dashboard): server/exports/
  registerExportAdminRoutes,
  registerDashboardExportRoutes,
  // The product surfaces (/webshops/{id}/products/…): server/products/
  registerProductRoutes,
  // Google's product review feed 2.4 (/webshops/{id}/feeds/…) and its key (operator API): server/feed/
  registerGoogleFeedRoutes,
  registerGoogleFeedAdminRoutes,
  // The compliance report (/admin/api/compliance): server/compliance/
  registerComplianceAdminRoutes,
];

function registerHealthRoute(router: Router, { db }: Pick<Services, 'db'>): void {
  router.get('/healthz', async (ctx) => {
    try {
      await Promise.race([
        db.command({ ping: 1 }),
        new Promise((_, fail) => setTimeout(() => fail(new Error('timeout')), 2000).unref()),
      ]);
      ctx.body = { status: 'ok' };
    } catch {
      ctx.status = 503;
      ctx.body = { status: 'unavailable' };
    }
  });
}

/** Runs the first matching group's envelope and middleware, then `next` (the routes). */
function byGroup(groups: RouteGroup[]): Middleware {
  const chains = groups.map((g) => ({ paths: g.paths, chain: [useEnvelope(g.envelope), ...g.middleware] }));
  return async (ctx, next) => {
    // The last group matches every path.
    const path = routedPath(ctx);
    const { chain } = chains.find((g) => g.paths.test(path))!;
    const run = async (i: number): Promise<void> => {
      if (i < chain.length) await chain[i]!(ctx, () => run(i + 1));
      else await next();
    };
    await run(0);
  };
}

/** Mounts the route table on the app; returns every routed method and path (for the OpenAPI coverage test). */
export function mountRoutes(app: Koa, services: Services): { method: string; path: string }[] {
  const router = new Router();
  for (const register of FEATURE_ROUTES) register(router, services);

  app.use(byGroup(routeGroups(services)));
  app.use(router.routes());
  app.use(
    router.allowedMethods({
      throw: true,
      methodNotAllowed: () => new HttpError(405, 'Method not allowed.'),
      notImplemented: () => new HttpError(501, 'Not implemented.'),
    }),
  );
  app.use(async (ctx) => {
    if (ctx.body === undefined && ctx.status === 404) sendError(ctx, 404, 'Not found.');
  });

  return router.stack.flatMap((layer) =>
    layer.methods.filter((m) => m !== 'HEAD').map((method) => ({ method, path: String(layer.path) })),
  );
}
