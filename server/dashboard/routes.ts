// The merchant dashboard's routes (/dashboard/…), one module per page of the app plus the accounts' sign-in and
// team routes. The session, Origin and CSRF checks are not here: server/routes.ts applies them to the whole
// /dashboard/api/ group, so a route that forgets them still refuses strangers.
import type Router from '@koa/router';
import type { Services } from '../services.js';
import { registerAccountRoutes } from '../accounts/routes.js';
import { registerDashboardAssetRoutes } from './assets.js';
import { registerDashboardInvitationRoutes } from './invitations.js';
import { registerDashboardWidgetRoutes } from './widget.js';
import { registerDashboardIntegrationRoutes } from './integration.js';
import { registerDashboardAuditRoutes } from './audit.js';
import { registerDashboardOverviewRoutes } from './overview.js';
import { registerDashboardReviewRoutes } from './reviews.js';
import { registerDashboardGoogleRoutes } from './google.js';

export function registerDashboardRoutes(
  router: Router,
  services: Pick<
    Services,
    | 'audit'
    | 'compliance'
    | 'config'
    | 'consents'
    | 'feedKeys'
    | 'googleFeeds'
    | 'imports'
    | 'invitationView'
    | 'invitations'
    | 'log'
    | 'moderation'
    | 'now'
    | 'outbox'
    | 'photos'
    | 'recipientLimit'
    | 'release'
    | 'reviewView'
    | 'reviews'
    | 'scheduler'
    | 'sessions'
    | 'signInLinks'
    | 'teamInvitations'
    | 'users'
    | 'webhookDeliveries'
    | 'webhooks'
    | 'webshops'
  >,
): void {
  registerAccountRoutes(router, services);
  registerDashboardAssetRoutes(router, services);
  registerDashboardInvitationRoutes(router, services);
  registerDashboardWidgetRoutes(router, services);
  registerDashboardIntegrationRoutes(router, services);
  registerDashboardAuditRoutes(router, services);
  registerDashboardOverviewRoutes(router, services);
  registerDashboardReviewRoutes(router, services);
  registerDashboardGoogleRoutes(router, services);
}
