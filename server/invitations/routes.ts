// POST /api/1.0/invitations.json (Add invitation) and GET /api/1.0/invitations.json (List invitations).
import type Router from '@koa/router';
import { classic } from '../http/classic.js';
import { intParam } from '../http/params.js';
import { formatTimestamp } from '../time.js';
import { mainLanguage } from '../webshops/rules.js';
import { parseInvitationInput } from './input.js';
import type { ListedInvitation } from './model.js';
import { addInvitation, type IntakeDeps } from './intake.js';
import type { ClassicDeps } from '../http/classic.js';
import type { Webshop } from '../webshops/model.js';
import type { WrittenReview } from '../consents/rules.js';

/** 1 MB of order_data grows to about 3 MB when URL-encoded; this leaves room for the other fields. */
const BODY_LIMIT = 4 * 1024 * 1024;

const INVITATION_MESSAGES = {
  queued: 'Invitation successfully added to queue!',
  alreadySent: 'Invitation already sent for this order.',
  limitReached: 'Invitation not queued: the maximum number of invitations for this e-mail address has been reached.',
  reviewWritten: 'No invitation queued: the customer already wrote a review for this order.',
  listed: 'Invitations successfully retrieved!',
} as const;

/** An invitation as List invitations answers it: openapi.ts's `listedInvitation` (input.test.ts checks they agree). */
export interface ListedInvitationBody {
  email: string;
  order: string;
  delay: number;
  datetimes: { created: string; scheduled: string; sent: string | false };
}

function toListedInvitation(i: ListedInvitation): ListedInvitationBody {
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

/**
 * What the invitation routes use: the shop's credentials and limit (classic()), the intake's dependencies, and the
 * invitation store's listing. app.ts builds them; nothing else of the service is in reach.
 */
export type InvitationRouteDeps<R extends WrittenReview = WrittenReview> = ClassicDeps<Webshop> &
  IntakeDeps<R> & {
    invitations: IntakeDeps<R>['invitations'] & {
      list(shopId: number, offset: number, limit: number): Promise<{ invitations: ListedInvitation[]; total: number }>;
    };
  };

export function registerInvitationRoutes<R extends WrittenReview>(router: Router, deps: InvitationRouteDeps<R>): void {
  const { invitations } = deps;

  router.post(
    '/api/1.0/invitations.json',
    classic(deps, { empty: {}, bodyLimit: BODY_LIMIT }, async (_ctx, { shop, params }) => {
      const input = parseInvitationInput(params, mainLanguage(shop));
      return { message: INVITATION_MESSAGES[await addInvitation(deps, shop, input)] };
    }),
  );

  router.get(
    '/api/1.0/invitations.json',
    classic(deps, { empty: { invitations: [], total: 0 } }, async (_ctx, { shop, params }) => {
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
