// POST /api/1.0/invitations.json (Add invitation) and GET /api/1.0/invitations.json (List invitations).
import type Router from '@koa/router';
import { classic } from '../http/classic.js';
import { intParam } from '../http/params.js';
import type { Services } from '../services.js';
import { formatTimestamp } from '../time.js';
import { mainLanguage } from '../webshops/store.js';
import { parseInvitationInput } from './input.js';
import type { ListedInvitation } from './store.js';
import { INVITATION_MAIL_JOB } from './send.js';
import { releaseOnInvitation } from '../embed/release.js';
import { customerReviewed, invitationNotBefore, speaksForCustomer } from '../consents/rules.js';

/** 1 MB of order_data grows to about 3 MB when URL-encoded; this leaves room for the other fields. */
const BODY_LIMIT = 4 * 1024 * 1024;

export const INVITATION_MESSAGES = {
  queued: 'Invitation successfully added to queue!',
  alreadySent: 'Invitation already sent for this order.',
  limitReached: 'Invitation not queued: the maximum number of invitations for this e-mail address has been reached.',
  reviewWritten: 'No invitation queued: the customer already wrote a review for this order.',
  listed: 'Invitations successfully retrieved!',
} as const;

export function toListedInvitation(i: ListedInvitation) {
  return {
    email: i.email,
    order: i.order,
    delay: i.delay,
    datetimes: {
      created: formatTimestamp(i.created),
      scheduled: formatTimestamp(i.scheduled),
      sent: i.sent ? formatTimestamp(i.sent) : false,
    },
  };
}

export function registerInvitationRoutes(router: Router, services: Services): void {
  const { invitations, consents, reviews } = services;

  router.post(
    '/api/1.0/invitations.json',
    classic(services, { empty: {}, bodyLimit: BODY_LIMIT }, async (_ctx, { shop, params }) => {
      const input = parseInvitationInput(params, mainLanguage(shop));

      // Privacy First: the customer answered the pop-up for this order. If they already wrote their review there,
      // an invitation would ask for it again; if they chose "ask me later", their chosen delay is respected. Only
      // answers that speak for this address count (consents/rules.ts): anyone can post an unsigned one.
      const receipts = input.order ? await consents.forInvitation(shop.id, input.order, input.email) : null;
      if (receipts && (receipts.signed || receipts.unsigned > 0)) {
        const written = await reviews.byOrder(shop.id, input.order);
        // This call, with the same address, proves the order of the unsigned pop-up reviews written under it.
        const verified = await releaseOnInvitation(services, written, input.email);
        if (verified > 0 || (speaksForCustomer(receipts) && customerReviewed(written, input.email))) {
          return { message: INVITATION_MESSAGES.reviewWritten };
        }
      }

      let place: string | null = null;
      if (input.maxPerEmail !== null) {
        // A retry of an order that is already queued is a repeat, not a new invitation over the limit.
        if (await invitations.exists(shop.id, input.email, input.order)) return { message: INVITATION_MESSAGES.alreadySent };
        place = await invitations.takePlace(shop.id, input.email, input.maxPerEmail);
        if (!place) return { message: INVITATION_MESSAGES.limitReached };
      }

      const notBefore = receipts ? invitationNotBefore(receipts) : undefined;
      const result = await invitations.add(shop.id, input, notBefore);
      if (!result.added && place) await invitations.givePlaceBack(place);
      if (result.added && result.invitation.scheduled <= services.now()) services.scheduler.trigger(INVITATION_MAIL_JOB);
      return { message: result.added ? INVITATION_MESSAGES.queued : INVITATION_MESSAGES.alreadySent };
    }),
  );

  router.get(
    '/api/1.0/invitations.json',
    classic(services, { empty: { invitations: [], total: 0 } }, async (_ctx, { shop, params }) => {
      const offset = intParam(params.offset, 'offset', { min: 0, max: 1_000_000_000, fallback: 0 });
      // `order` is the spec's name for the page size; some clients send `limit`.
      const useOrder = params.order !== undefined && params.order !== '';
      const limit = intParam(useOrder ? params.order : params.limit, useOrder ? 'order' : 'limit', {
        min: 1,
        max: 100,
        fallback: 10,
      });
      const page = await invitations.list(shop.id, offset, limit);
      return { message: INVITATION_MESSAGES.listed, invitations: page.invitations.map(toListedInvitation), total: page.total };
    }),
  );
}
