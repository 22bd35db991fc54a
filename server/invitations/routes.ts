// POST /api/1.0/invitations.json (Add invitation) and GET /api/1.0/invitations.json (List invitations).
import type Router from '@koa/router';
import { classic } from '../http/classic.js';
import { intParam } from '../http/params.js';
import type { Services } from '../services.js';
import { formatTimestamp } from '../time.js';
import { mainLanguage } from '../webshops/rules.js';
import { parseInvitationInput } from './input.js';
import type { ListedInvitation } from './store.js';
import { addInvitation } from './intake.js';
import type { listedInvitation } from './openapi.js';
import type { z } from 'zod';

/** 1 MB of order_data grows to about 3 MB when URL-encoded; this leaves room for the other fields. */
const BODY_LIMIT = 4 * 1024 * 1024;

const INVITATION_MESSAGES = {
  queued: 'Invitation successfully added to queue!',
  alreadySent: 'Invitation already sent for this order.',
  limitReached: 'Invitation not queued: the maximum number of invitations for this e-mail address has been reached.',
  reviewWritten: 'No invitation queued: the customer already wrote a review for this order.',
  listed: 'Invitations successfully retrieved!',
} as const;

function toListedInvitation(i: ListedInvitation): z.infer<typeof listedInvitation> {
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
  const { invitations } = services;

  router.post(
    '/api/1.0/invitations.json',
    classic(services, { empty: {}, bodyLimit: BODY_LIMIT }, async (_ctx, { shop, params }) => {
      const input = parseInvitationInput(params, mainLanguage(shop));
      return { message: INVITATION_MESSAGES[await addInvitation(services, shop, input)] };
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
      return {
        message: INVITATION_MESSAGES.listed,
        invitations: page.invitations.map(toListedInvitation),
        total: page.total,
      };
    }),
  );
}
