// The dependencies every feature receives: built once in app.ts, injected into routes and jobs.
import type { Config } from './config.js';
import type { Db } from './db/index.js';
import type { Logger } from './log.js';
import type { RateLimiter } from './http/rate-limit.js';
import type { Scheduler } from './jobs/scheduler.js';
import type { WebshopStore } from './webshops/store.js';
import type { ReviewStore } from './reviews/store.js';
import type { RatingsReadModel } from './ratings/read-model.js';
import type { InvitationStore } from './invitations/store.js';
import type { ConsentStore } from './consents/store.js';
import type { WebhookStore } from './webhooks/store.js';
import type { WebhookDeliveryStore } from './webhooks/delivery-store.js';
import type { DomainTokenStore } from './domains/token-store.js';
import type { PopupTokenStore } from './reviews/popup-token-store.js';
import type { ConfirmationQueue } from './reviews/confirmation-queue.js';
import type { Mailer } from './mail/transport.js';
import type { SuppressionStore } from './mail/suppression-store.js';
import type { RecipientLimit } from './mail/recipient-limit-store.js';
import type { AuditStore } from './audit/store.js';
import type { PolicyTextStore } from './policy/store.js';
import type { EventQueue } from './webhooks/event-queue.js';
import type { ReviewMailQueue } from './mail/review-queue.js';
import type { ModerationStore } from './moderation/store.js';
import type { UserStore } from './accounts/user-store.js';
import type { SignalStore } from './signals/store.js';
import type { InvitationLimitStore } from './accounts/invitation-limit-store.js';
import type { SessionStore } from './accounts/session-store.js';
import type { SignInLinkStore } from './accounts/link-store.js';
import type { ReviewRelease } from './reviews/publication.js';
import type { MailOwnIntent } from './mail/outbox-mail.js';
import type { WorkQueue } from './queue/work-queue.js';
import type { SignInIntent } from './accounts/sign-in-mail.js';
import type { NoticeIntent } from './moderation/notice-mail.js';
import type { ExportSlots } from './exports/slot-store.js';
import type { Cache, Caches } from './cache.js';
import type { ReviewView } from './dashboard/review-view.js';
import type { InvitationView } from './dashboard/invitation-view.js';
import type { KnownQuery, WidgetPageCache } from './widget/cache.js';
import type { PolicyNumbers } from './policy/numbers.js';

/** A shop's policy-page numbers and the public review version they were computed at. */
export interface PolicyNumbersEntry {
  version: number;
  numbers: PolicyNumbers;
}
import type { ImportStore } from './imports/store.js';
import type { ImportPhotoQueue } from './imports/photo-queue.js';
import type { ImportedProductReviewStore } from './imports/product-review-store.js';
import type { PhotoStore } from './photos/store.js';
import type { PhotoStorage } from './photos/storage.js';
import type { ImportedPhotoOwners } from './photos/routes.js';
import type { HelpfulStore } from './helpful/store.js';
import type { ProductIndex } from './products/read-model.js';
import type { FeedKeyStore } from './feed/key-store.js';
import type { GoogleFeedFiles } from './feed/google-build.js';
import type { ComplianceStore } from './compliance/store.js';
import type { Episode } from './jobs/transient.js';
import type { FeedRebuildQueue } from './feed/rebuild-queue.js';
import type { WriteActivity } from './http/activity.js';

export interface Services {
  config: Config;
  db: Db;
  log: Logger;
  now: () => Date;
  webshops: WebshopStore;
  reviews: ReviewStore;
  ratings: RatingsReadModel;
  shopLimiter: RateLimiter;
  /** Scheduled work; started by main.ts (or a test), never by buildApp. */
  scheduler: Scheduler;
  invitations: InvitationStore;
  consents: ConsentStore;
  webhooks: WebhookStore;
  webhookDeliveries: WebhookDeliveryStore;
  /** Review events not yet turned into webhook deliveries, each with the review as written. */
  reviewEvents: EventQueue;
  /** E-mails about reviews (edit, confirmation, reply) still to be sent. */
  /** Failed attempts at review e-mails and their retry times. */
  reviewMails: ReviewMailQueue;
  domainTokens: DomainTokenStore;
  popupTokens: PopupTokenStore;
  /** Reviews waiting for their writer's e-mail confirmation, until they expire. */
  confirmations: ConfirmationQueue;
  /** SMTP (pooled) or, in development without SMTP_URL, the outbox directory. */
  mailer: Mailer;
  /** Addresses that unsubscribed from a shop's invitations. */
  suppressions: SuppressionStore;
  /** E-mails a day to an address an anonymous requester typed, across shops and processes. */
  recipientLimit: RecipientLimit;
  /** Who did what, when: moderation decisions and other actions on shops' reviews. */
  audit: AuditStore;
  /** The operator's service-wide texts of the review policy page. */
  policyTexts: PolicyTextStore;
  /** Reports about reviews, the removals decided on them, and the writers' removal notices. */
  moderation: ModerationStore;
  /** Dashboard users, their roles per shop and each shop's team. */
  users: UserStore;
  /** Reviews waiting for the fake-review signals, and the per-shop counters they read (server/signals). */
  signals: SignalStore;
  /** Dashboard sessions, by the digest of the cookie's secret. */
  sessions: SessionStore;
  /** Dashboard sign-in links, each usable once. */
  signInLinks: SignInLinkStore;
  /** Owners' team additions a day, per shop and per address, across processes. */
  teamInvitations: InvitationLimitStore;
  /**
   * Pop-up reviews released by an Add invitation (reviews/publication.ts). Injected by app.ts rather than imported
   * by the intake: a reader following Add invitation meets one call, not the publication rules behind it, which
   * run only when the order has a pop-up receipt.
   */
  release: ReviewRelease;
  /** E-mails queued for the worker's `mail.outbox` drain: sign-in links, team invitations, new edit links, removal notices. */
  outbox: WorkQueue<OutboxMail>;
  /** One export per shop at a time, across processes (exports/slot-store.ts). */
  exportSlots: ExportSlots;
  /** The process's cache budget; every cache below and in the stores is a part of it (server/cache.ts). */
  caches: Caches;
  /** The dashboard's in-memory views of each shop's reviews and invitations. */
  reviewView: ReviewView;
  invitationView: InvitationView;
  /** Rendered widget pages; widget query strings already validated. */
  widgetPages: WidgetPageCache;
  widgetQueries: Cache<KnownQuery>;
  /** fetch_domain.json: host → shop ids. */
  domainHosts: Cache<number[]>;
  /** The policy page's numbers per shop. */
  policyNumbers: Cache<PolicyNumbersEntry>;
  /** Bulk review imports from other platforms: their files, progress, and the identities imported per shop. */
  imports: ImportStore;
  /** The API's requests that may write, in flight in this process: a bulk import lets them go first. */
  activity: WriteActivity;
  /** Imported reviews of products only: kept apart from the shop's reviews and score. */
  productReviews: ImportedProductReviewStore;
  /** Photos of reviews: their records, to-do list and daily limits (server/photos/). */
  photos: PhotoStore;
  /** Where photo files live: DATA_DIR/photos/ with the embedded database, GridFS with MONGODB_URI. */
  photoStorage: PhotoStorage;
  /** Imported product reviews as owners of photos: a photo of one is served while that review is published and shows it. */
  importedPhotoOwners: ImportedPhotoOwners;
  /** "Helpful" votes and their counts per shop. */
  helpful: HelpfulStore;
  /** Each shop's reviewed products and their reviews, in memory (server/products/). */
  products: ProductIndex;
  /** The Google product review feed: its key per shop, and the built feed files (server/feed/). */
  feedKeys: FeedKeyStore;
  googleFeeds: GoogleFeedFiles;
  /** The compliance counters per shop and day, kept as things happen (server/compliance/). */
  compliance: ComplianceStore;
  /** Photo URLs of imported files still to fetch (server/imports/photo-queue.ts). */
  importPhotos: ImportPhotoQueue;
  /** Transient errors while recording how invitation e-mails went: one episode (one warning) for the process. */
  mailRecording: Episode;
  /** Google feed rebuilds queued by review changes, for the worker (server/feed/rebuild-queue.ts). */
  feedRebuilds: FeedRebuildQueue;
}

/** Every e-mail the outbox carries, each declared by the feature that queues it (mail/outbox-mail.ts). */
export type OutboxMail = SignInIntent | MailOwnIntent | NoticeIntent;
