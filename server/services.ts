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
import type { WebhookDeliveryStore } from './webhooks/deliveries.js';
import type { DomainTokenStore } from './domains/tokens.js';
import type { PopupTokenStore } from './embed/tokens.js';
import type { ConfirmationQueue } from './embed/confirmations.js';
import type { Mailer } from './mail/transport.js';
import type { SuppressionStore } from './mail/suppressions.js';
import type { RecipientLimit } from './mail/recipient-limit.js';

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
}
