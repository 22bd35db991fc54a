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
import type { OutboxMail, PolicyNumbersEntry, Services } from './services.js';
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
import { ModerationStore } from './moderation/store.js';
import { ImportStore } from './imports/store.js';
import { ImportPhotoQueue } from './imports/photo-queue.js';
import { ImportedProductReviewStore } from './imports/product-review-store.js';
import { SignalStore } from './signals/store.js';
import { UserStore } from './accounts/user-store.js';
import { InvitationLimitStore } from './accounts/invitation-limit-store.js';
import { SessionStore } from './accounts/session-store.js';
import { SignInLinkStore } from './accounts/link-store.js';
import { WorkQueue } from './queue/work-queue.js';
import { OUTBOX_COLLECTION } from './mail/outbox-mail.js';
import { ExportSlots } from './exports/slot-store.js';
import { Caches } from './cache.js';
import { KNOWN_QUERY_CACHE, WidgetPageCache, widgetPageCacheOptions } from './widget/cache.js';
import { ReviewView } from './dashboard/review-view.js';
import { InvitationView } from './dashboard/invitation-view.js';
import { CATCH_UP_WAIT_MS } from './dashboard/shop-view.js';
import { PhotoStore } from './photos/store.js';
import { createPhotoStorage } from './photos/storage.js';
import { PhotoFollower } from './photos/service.js';
import { JOB } from './jobs/names.js';
import { Episode } from './jobs/transient.js';
import { HelpfulStore } from './helpful/store.js';
import { ProductIndex } from './products/read-model.js';
import { join } from 'node:path';
import { FeedKeyStore } from './feed/key-store.js';
import { GoogleFeedFiles } from './feed/google-build.js';
import { ComplianceStore } from './compliance/store.js';
import { ComplianceFollower } from './compliance/follower.js';
import { FeedRebuildQueue } from './feed/rebuild-queue.js';
import { countWrites, WriteActivity } from './http/activity.js';

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
  // Every in-process cache, in one memory budget (CACHE_MEMORY_MB) with one rule for other processes' changes
  // (CACHE_TTL_MS; credentials never served stale): server/cache.ts, docs/decisions/caching.md.
  const caches = new Caches(config.cache);
  const webshops = new WebshopStore(db, caches.cache('webshops'), now);
  const reviews = new ReviewStore(db, now);
  const helpful = new HelpfulStore(db, now);
  const ratings = new RatingsReadModel(
    reviews,
    caches.cache('ratings'),
    config.baseUrl,
    (shopId) => helpful.countsOf(shopId),
    config.scorePolicy,
  );

  const invitations = new InvitationStore(db, now);
  // The dashboard's views: no TTL, their change counters are checked on every read (dashboard/shop-view.ts).
  const viewLimits = { maxBytes: caches.maxEntryBytes, catchUpWaitMs: CATCH_UP_WAIT_MS };
  const reviewView = new ReviewView(reviews, caches.cache('review-views', { ttlMs: Infinity }), viewLimits);
  const invitationView = new InvitationView(
    invitations,
    caches.cache('invitation-views', { ttlMs: Infinity }),
    viewLimits,
  );
  const widgetPages = new WidgetPageCache(caches.cache('widget-pages', widgetPageCacheOptions(config.cache.ttlMs)));
  const policyNumbers = caches.cache<PolicyNumbersEntry>('policy-numbers');
  const productReviews = new ImportedProductReviewStore(db);
  const products = new ProductIndex(reviews, productReviews, caches.cache('products'), config.baseUrl);
  // What this process writes shows in its caches at once: every review write changes the merchant's list, only
  // some what the public sees (a review waiting in quarantine does not make public pages render again).
  reviews.onChange((shopId) => ratings.invalidate(shopId, 'merchant'));
  reviews.onPublicChange((shopId) => {
    ratings.invalidate(shopId, 'public');
    widgetPages.invalidate(shopId);
    policyNumbers.delete(shopId);
    products.publicWritten(shopId);
  });
  // The product index changes in place, one review at a time (products/read-model.ts): never read whole again.
  reviews.onChange((shopId, review) => products.reviewWritten(shopId, review));
  productReviews.onChange((shopId) => products.importedWritten(shopId));
  const services: Services = {
    config,
    db,
    log,
    now,
    webshops,
    reviews,
    ratings,
    shopLimiter: new RateLimiter(config.rateLimit.perShopPerMinute),
    scheduler: new Scheduler(db, log, { ...config.scheduler, worker: config.role !== 'api' }),
    invitations,
    consents: new ConsentStore(db, now, config.consents),
    webhooks: new WebhookStore(db, now),
    webhookDeliveries: new WebhookDeliveryStore(db),
    reviewEvents: new EventQueue(db, now),
    reviewMails: new ReviewMailQueue(db, now),
    domainTokens: new DomainTokenStore(db, caches.cache('domain-tokens'), now),
    popupTokens: new PopupTokenStore(db, now),
    confirmations: new ConfirmationQueue(db),
    mailer: createMailer(config, log),
    suppressions: new SuppressionStore(db, now),
    recipientLimit: new RecipientLimit(db, now),
    audit: new AuditStore(db, now),
    policyTexts: new PolicyTextStore(db, caches.cache('policy-texts'), now),
    moderation: new ModerationStore(db, now),
    users: new UserStore(db, caches.cache('users'), now),
    sessions: new SessionStore(db, caches.cache('sessions')),
    signInLinks: new SignInLinkStore(db, now),
    teamInvitations: new InvitationLimitStore(db, now),
    signals: new SignalStore(db, now, {
      on: config.signals.includes('shared_network'),
      key: config.signalKey,
    }),
    release: { onInvitation: (written, email) => releaseOnInvitation(services, written, email) },
    outbox: new WorkQueue<OutboxMail>(db, OUTBOX_COLLECTION, now),
    exportSlots: new ExportSlots(db, now),
    caches,
    reviewView,
    invitationView,
    widgetPages,
    widgetQueries: caches.cache('widget-queries', KNOWN_QUERY_CACHE),
    domainHosts: caches.cache('domain-hosts'),
    policyNumbers,
    imports: new ImportStore(db, now),
    activity: new WriteActivity(),
    productReviews,
    photos: new PhotoStore(db, now),
    photoStorage: createPhotoStorage(config, db),
    importedPhotoOwners: {
      async photoShown(productReviewId, photoId) {
        const review = await productReviews.get(productReviewId);
        return (
          review?.status === 'published' && (review.photos ?? []).some((p) => p.id === photoId && p.state === 'shown')
        );
      },
      async describe(productReviewId) {
        const review = await productReviews.get(productReviewId);
        if (!review) return null;
        const product = { id: review.product.external_id, name: review.product.name };
        return { product, text: review.text, title: review.title };
      },
      async decideHeldPhoto(productReviewId, photoId, state) {
        return (await productReviews.decideHeldPhoto(productReviewId, photoId, state)) !== null;
      },
    },
    helpful,
    products,
    feedKeys: new FeedKeyStore(db, now),
    googleFeeds: new GoogleFeedFiles({
      reviews,
      dir: join(config.dataDir, 'google-feeds'),
      brandName: config.brandName,
      baseUrl: config.baseUrl,
      now,
    }),
    compliance: new ComplianceStore(db, now, (err) => log.error({ err }, 'compliance counters not written')),
    importPhotos: new ImportPhotoQueue(db, now),
    mailRecording: new Episode(log, 'recording e-mail outcomes'),
    // Its own key store reads the same collection (the store keeps nothing in memory).
    feedRebuilds: new FeedRebuildQueue(db, new FeedKeyStore(db, now), now),
  };
  await webshops.ensureIndexes();
  await reviews.ensureIndexes();
  await services.invitations.ensureIndexes();
  await services.consents.ensureIndexes();
  await services.webhooks.ensureIndexes();
  await services.webhookDeliveries.ensureIndexes();
  await services.reviewEvents.ensureIndexes();
  await services.reviewMails.ensureIndexes();
  await services.signals.ensureIndexes();
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
  await services.outbox.ensureIndexes();
  await services.exportSlots.ensureIndexes();
  await services.imports.ensureIndexes();
  await services.productReviews.ensureIndexes();
  await services.photos.ensureIndexes();
  await services.importPhotos.ensureIndexes();
  // Photos follow their review: a write that takes one off queues the deletion of its files.
  const photoFollower = new PhotoFollower(services.photos, () => services.scheduler.trigger(JOB.photos));
  reviews.follow(photoFollower);
  reviews.beforeRemoval((removed) => photoFollower.removing(removed));
  // Reviews received and first published, for the compliance counters (server/compliance/).
  reviews.follow(new ComplianceFollower(services.compliance, now));
  // A change to what a shop's Google feed sends queues its rebuild for the worker (server/feed/rebuild-queue.ts).
  await services.feedRebuilds.ensureIndexes();
  reviews.follow(services.feedRebuilds);
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
  // The requests that may write, counted for a bulk import in this process to let them go first (http/activity.ts).
  app.use(countWrites(services.activity));
  // Groups of routes with their error envelope, CORS and limits, then the feature modules: server/routes.ts.
  const routes = mountRoutes(app, services);
  return { app, services, routes };
}
