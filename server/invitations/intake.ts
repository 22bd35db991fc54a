// Add invitation, the service: what happens between a parsed request and a queued invitation. The rules span the
// consent receipts, the reviews already written for the order, the per-address limit and the invitation store;
// the route only parses and answers (routes.ts), the sender runs later (send.ts).
import type { Webshop } from '../webshops/model.js';
import { reminderDays } from '../webshops/rules.js';
import type { InvitationInput } from './input.js';
import type { Invitation } from './model.js';
import {
  customerReviewed,
  invitationNotBefore,
  speaksForCustomer,
  type InvitationReceipts,
  type WrittenReview,
} from '../consents/rules.js';
import { JOB } from '../jobs/names.js';

/**
 * What Add invitation uses, and nothing else: app.ts passes the stores (InvitationStore, ConsentStore, ReviewStore,
 * ComplianceStore), the pop-up release (reviews/publication.ts) and the scheduler. Declared here as the methods
 * called, so a reader of the intake meets none of those modules. `R`: the reviews' own type, handed from one to the
 * other unread but for the fields of WrittenReview.
 */
export interface IntakeDeps<R extends WrittenReview = WrittenReview> {
  now: () => Date;
  invitations: {
    exists(shopId: number, email: string, order: string): Promise<boolean>;
    takePlace(shopId: number, email: string, max: number): Promise<string | null>;
    givePlaceBack(place: string): Promise<void>;
    add(
      shopId: number,
      input: InvitationInput,
      options: { notBefore?: Date; reminderDays?: number },
    ): Promise<{ added: true; invitation: Invitation } | { added: false }>;
  };
  consents: {
    forInvitation(shopId: number, order: string, email: string): Promise<InvitationReceipts & { unsigned: number }>;
  };
  reviews: { byOrder(shopId: number, order: string): Promise<R[]> };
  release: { onInvitation(reviews: readonly R[], email: string): Promise<number> };
  scheduler: { trigger(job: string): void };
  compliance: { count(shopId: number, event: { kind: 'invitation_queued' }): void };
}

/** How an Add invitation ended (the route turns it into the endpoint's message). */
type IntakeOutcome = 'queued' | 'alreadySent' | 'limitReached' | 'reviewWritten';

export async function addInvitation<R extends WrittenReview>(
  deps: IntakeDeps<R>,
  shop: Webshop,
  input: InvitationInput,
): Promise<IntakeOutcome> {
  const { invitations, consents, reviews } = deps;

  // Privacy First: the customer answered the pop-up for this order. If they already wrote their review there, an
  // invitation would ask for it again; if they chose "ask me later", their chosen delay is respected. Only answers
  // that speak for this address count (consents/rules.ts): anyone can post an unsigned one.
  const receipts = input.order ? await consents.forInvitation(shop.id, input.order, input.email) : null;
  if (receipts && (receipts.signed || receipts.unsigned > 0)) {
    const written = await reviews.byOrder(shop.id, input.order);
    // This call, with the same address, proves the order of the unsigned pop-up reviews written under it.
    const verified = await deps.release.onInvitation(written, input.email);
    if (verified > 0 || (speaksForCustomer(receipts) && customerReviewed(written, input.email))) return 'reviewWritten';
  }

  let place: string | null = null;
  if (input.maxPerEmail !== null) {
    // A retry of an order that is already queued is a repeat, not a new invitation over the limit.
    if (await invitations.exists(shop.id, input.email, input.order)) return 'alreadySent';
    place = await invitations.takePlace(shop.id, input.email, input.maxPerEmail);
    if (!place) return 'limitReached';
  }

  const notBefore = receipts ? invitationNotBefore(receipts) : undefined;
  let result: Awaited<ReturnType<IntakeDeps['invitations']['add']>>;
  try {
    result = await invitations.add(shop.id, input, { notBefore, reminderDays: reminderDays(shop) });
  } catch (err) {
    // A failed write (a busy database) must not keep the address's place: the client's retry needs it.
    if (place) await invitations.givePlaceBack(place);
    throw err;
  }
  if (!result.added) {
    if (place) await invitations.givePlaceBack(place);
    return 'alreadySent';
  }
  if (result.invitation.scheduled <= deps.now()) deps.scheduler.trigger(JOB.invitationMail);
  deps.compliance.count(shop.id, { kind: 'invitation_queued' });
  return 'queued';
}
