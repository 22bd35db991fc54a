// Builds the Koa application from injected dependencies, so tests build it against a test database.
import Koa from 'koa';
import type { Config } from './config.js';
import type { Db } from './db/index.js';
import type { Logger } from './log.js';
import { accessLog, errorHandler, strayErrorLogger } from './http/middleware.js';
import { mountRoutes } from './routes.js';
import { RateLimiter } from './http/rate-limit.js';
import { Scheduler } from './jobs/scheduler.js';
import { WebshopStore } from './webshops/store.js';
import type { Services } from './services.js';
import { ReviewStore } from './reviews/store.js';
import { RatingsReadModel } from './ratings/read-model.js';
import { InvitationStore } from './invitations/store.js';
import { ConsentStore } from './consents/store.js';
import { WebhookStore } from './webhooks/store.js';
import { WebhookDeliveryStore } from './webhooks/delivery-store.js';
import { EventQueue } from './webhooks/event-queue.js';
import { ReviewMailQueue } from './mail/review-queue.js';
import { DomainTokenStore } from './domains/token-store.js';
import { PopupTokenStore } from './reviews/popup-token-store.js';
import { ConfirmationQueue } from './reviews/confirmation-queue.js';
import { runMigrations } from './migrations/registry.js';
import { releaseOnInvitation } from './reviews/publication.js';
import { createMailer } from './mail/transport.js';
import { SuppressionStore } from './mail/suppression-store.js';
import { RecipientLimit } from './mail/recipient-limit-store.js';
import { registerJobs } from './jobs/registry.js';
import { AuditStore } from './audit/store.js';
import { PolicyTextStore } from './policy/store.js';
import { MailAttemptStore } from './mail/attempt-store.js';
import { ModerationStore } from './moderation/store.js';
import { SignalStore } from './signals/store.js';
import { UserStore } from './accounts/user-store.js';
import { InvitationLimitStore } from './accounts/invitation-limit-store.js';
import { SessionStore } from './accounts/session-store.js';
import { SignInLinkStore } from './accounts/link-store.js';

interface AppDeps {
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
    reviewEvents: new EventQueue(db, now),
    reviewMails: new ReviewMailQueue(db, now),
    domainTokens: new DomainTokenStore(db, config.cache, now),
    popupTokens: new PopupTokenStore(db, now),
    confirmations: new ConfirmationQueue(db),
    mailer: createMailer(config, log),
    suppressions: new SuppressionStore(db, now),
    recipientLimit: new RecipientLimit(db, now),
    audit: new AuditStore(db, now),
    policyTexts: new PolicyTextStore(db, now),
    mailAttempts: new MailAttemptStore(db),
    moderation: new ModerationStore(db, now),
    users: new UserStore(db, config.cache, now),
    sessions: new SessionStore(db, config.cache, now),
    signInLinks: new SignInLinkStore(db, now),
    teamInvitations: new InvitationLimitStore(db, now),
    signals: new SignalStore(db, now),
    release: { onInvitation: (written, email) => releaseOnInvitation(services, written, email) },
  };
  await webshops.ensureIndexes();
  await reviews.ensureIndexes();
  await services.invitations.ensureIndexes();
  await services.consents.ensureIndexes();
  await services.webhooks.ensureIndexes();
  await services.webhookDeliveries.ensureIndexes();
  await services.reviewEvents.ensureIndexes();
  await services.reviewMails.ensureIndexes();
  // What every review write leaves for later is queued with it; what older versions left is queued once, below.
  reviews.follow(services.reviewEvents);
  reviews.follow(services.reviewMails);
  reviews.follow(services.signals);
  await services.domainTokens.ensureIndexes();
  await services.popupTokens.ensureIndexes();
  await services.confirmations.ensureIndexes();
  await services.audit.ensureIndexes();
  await services.moderation.ensureIndexes();
  await services.users.ensureIndexes();
  // Data stored by older versions, brought to this one's shape once: server/migrations/registry.ts.
  await runMigrations(services);
  // Every scheduled job, from each feature's job module (started by main.ts or a test, never here).
  await registerJobs(services);

  // The client writes X-Forwarded-For as it likes and each proxy appends what it saw: only the last
  // `trustProxyHops` entries are ours, so ctx.ip is the entry that far from the right (Koa: ips.slice(-n)[0]).
  const app = new Koa({ proxy: config.trustProxy, maxIpsCount: config.trustProxyHops });
  app.on('error', strayErrorLogger(log));
  // The access log outside the error handler: it sees every answer, errors included, with its final status.
  app.use(accessLog(log));
  app.use(errorHandler(log, config.brandName));
  app.use(async (ctx, next) => {
    ctx.set('X-Content-Type-Options', 'nosniff');
    await next();
  });
  // Groups of routes with their error envelope, CORS and limits, then the feature modules: server/routes.ts.
  const routes = mountRoutes(app, services);
  return { app, services, routes };
}
