// Builds the Koa application from injected dependencies, so tests build it against a test database.
import Koa from 'koa';
import Router from '@koa/router';
import type { Config } from './config.js';
import type { Db } from './db/index.js';
import type { Logger } from './log.js';
import { HttpError, sendError } from './http/errors.js';
import { accessLog, errorHandler, ipRateLimit } from './http/middleware.js';
import { RateLimiter } from './http/rate-limit.js';
import { Scheduler } from './jobs/scheduler.js';
import { WebshopStore } from './webshops/store.js';
import type { Services } from './services.js';
import { registerWebshopRoutes } from './webshops/routes.js';
import { registerWebshopAdminRoutes } from './webshops/admin.js';
import { ReviewStore } from './reviews/store.js';
import { RatingsReadModel } from './ratings/read-model.js';
import { registerRatingRoutes } from './ratings/routes.js';
import { registerReviewAdminRoutes } from './reviews/admin.js';
import { registerFeedRoutes } from './feed/routes.js';
import { InvitationStore } from './invitations/store.js';
import { registerInvitationRoutes } from './invitations/routes.js';
import { ConsentStore } from './consents/store.js';
import { registerConsentRoutes } from './consents/routes.js';
import { registerCustomerAdminRoutes } from './customers/admin.js';
import { registerReplyRoutes } from './replies/routes.js';
import { WebhookStore } from './webhooks/store.js';
import { registerWebhookRoutes } from './webhooks/routes.js';
import { WebhookDeliveryStore } from './webhooks/deliveries.js';
import { registerWebhookManageRoutes } from './webhooks/manage.js';
import { registerWebhookJobs } from './webhooks/jobs.js';
import { DomainTokenStore } from './domains/tokens.js';
import { registerDomainRoutes } from './domains/routes.js';
import { PopupTokenStore } from './embed/tokens.js';
import { ConfirmationQueue } from './embed/confirmations.js';
import { migrateConsentTrust } from './consents/migrate.js';
import { registerEmbedApiRoutes } from './embed/api.js';
import { registerEmbedAssetRoutes } from './embed/assets.js';
import { registerPageRoutes } from './pages/routes.js';
import { registerWidgetRoutes } from './widget/routes.js';
import { registerOpenApiRoutes } from './openapi/routes.js';
import { createMailer } from './mail/transport.js';
import { SuppressionStore } from './mail/suppressions.js';
import { RecipientLimit } from './mail/recipient-limit.js';
import { registerMailJobs } from './mail/jobs.js';
import { registerMailRoutes } from './mail/routes.js';

export interface AppDeps {
  config: Config;
  db: Db;
  log: Logger;
  now?: () => Date;
}

export interface BuiltApp {
  app: Koa;
  services: Services;
  /** Every routed method and path, for the OpenAPI coverage test. */
  routes: { method: string; path: string }[];
}

/** Creates the services and indexes, and returns the app ready to listen. */
export async function buildApp(deps: AppDeps): Promise<BuiltApp> {
  const { config, db, log } = deps;
  const now = deps.now ?? (() => new Date());
  const webshops = new WebshopStore(db, config.cache, now);
  const reviews = new ReviewStore(db, now);
  const services: Services = {
    config,
    db,
    log,
    now,
    webshops,
    reviews,
    ratings: new RatingsReadModel(reviews, config.cache),
    shopLimiter: new RateLimiter(config.rateLimit.perShopPerMinute),
    scheduler: new Scheduler(db, log, { ...config.scheduler, worker: config.role !== 'api' }),
    invitations: new InvitationStore(db, now),
    consents: new ConsentStore(db, now, config.consents),
    webhooks: new WebhookStore(db, now),
    webhookDeliveries: new WebhookDeliveryStore(db),
    domainTokens: new DomainTokenStore(db, config.cache, now),
    popupTokens: new PopupTokenStore(db, now),
    confirmations: new ConfirmationQueue(db),
    mailer: createMailer(config, log),
    suppressions: new SuppressionStore(db, now),
    recipientLimit: new RecipientLimit(db, now),
  };
  await webshops.ensureIndexes();
  await reviews.ensureIndexes();
  await services.invitations.ensureIndexes();
  await services.consents.ensureIndexes();
  await services.webhooks.ensureIndexes();
  await services.webhookDeliveries.ensureIndexes();
  registerWebhookJobs(services);
  await services.domainTokens.ensureIndexes();
  await services.popupTokens.ensureIndexes();
  await services.confirmations.ensureIndexes();
  await migrateConsentTrust(services);
  await registerMailJobs(services);

  // One router for the whole app; each feature registers its own routes on it.
  const router = new Router();
  router.get('/healthz', async (ctx) => {
    ctx.state.envelope = { style: 'admin' };
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
  registerWebshopRoutes(router, services);
  registerWebshopAdminRoutes(router, services);
  registerRatingRoutes(router, services);
  registerOpenApiRoutes(router, services);
  registerReviewAdminRoutes(router, services);
  registerFeedRoutes(router, services);
  registerInvitationRoutes(router, services);
  registerConsentRoutes(router, services);
  registerCustomerAdminRoutes(router, services);
  registerReplyRoutes(router, services);
  registerWebhookRoutes(router, services);
  registerWebhookManageRoutes(router, services);
  registerDomainRoutes(router, services);
  registerEmbedApiRoutes(router, services);
  registerEmbedAssetRoutes(router, services);
  registerPageRoutes(router, services);
  registerWidgetRoutes(router, services);
  registerMailRoutes(router, services);

  // The client writes X-Forwarded-For as it likes and each proxy appends what it saw: only the last
  // `trustProxyHops` entries are ours, so ctx.ip is the entry that far from the right (Koa: ips.slice(-n)[0]).
  const app = new Koa({ proxy: config.trustProxy, maxIpsCount: config.trustProxyHops });
  app.use(errorHandler(log, config.brandName));
  app.use(accessLog(log));
  app.use(async (ctx, next) => {
    ctx.set('X-Content-Type-Options', 'nosniff');
    // The embed calls from shops' pages: its errors (429 from the limiter, 404) must be readable cross-site too.
    if (ctx.path.startsWith('/embed/')) ctx.set('Access-Control-Allow-Origin', '*');
    await next();
  });
  app.use(ipRateLimit(new RateLimiter(config.rateLimit.perIpPerMinute)));

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

  const routes = router.stack.flatMap((layer) =>
    layer.methods.filter((m) => m !== 'HEAD').map((method) => ({ method, path: String(layer.path) })),
  );
  return { app, services, routes };
}
