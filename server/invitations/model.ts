// An invitation and its sending records as stored (store.ts, queue.ts keep them): types only, so the route, the
// intake and the sender name what they handle without importing the stores and the database behind them.
import type { ObjectId, WithId } from 'mongodb';
import type { Language } from '../languages.js';

/**
 * A product of the order, as the review's product starts out (reviews/model.ts's ReviewProduct without the rating
 * and text the customer adds): declared here rather than picked from it, so the invitation's path does not pass
 * through the reviews' model. input.test.ts checks that the two stay the same.
 */
export interface InvitationProduct {
  /** The `order_data.products[].id` the shop sent. */
  external_id: string;
  name: string;
  url: string;
  image_url: string;
  sku: string;
  gtin: string;
  mpn: string;
  brand: string;
}

export interface Invitation {
  shopId: number;
  /** Normalised (see normalizeEmail). */
  email: string;
  order: string;
  dedupe: string;
  language: Language;
  delay: number;
  customer_name: string;
  products: InvitationProduct[];
  client: string | null;
  platform_version: string | null;
  plugin_version: string | null;
  created: Date;
  scheduled: Date;
  /** The review link's secret (`/review/{token}`); made when queued, so every copy of the e-mail has the same link. */
  token: string;
  /** When the customer wrote their review through the invitation's link (single use); null before. */
  used: Date | null;
  /** Secret of the unsubscribe link: a separate token, so that each link can do one thing only. */
  unsubscribeToken: string;
  /** The shop offers something for the review (Add invitation's `incentivised=1`); absent on older ones: false. */
  incentivised?: boolean;
}

/** An invitation as listed: with when it was sent (from its outcome), null while not sent. */
export type ListedInvitation = Invitation & { sent: Date | null };

/** An invitation as the dashboard lists it (InvitationStore.onChange, allOfShops, createdSince): no link secrets. */
export type ListedRecord = WithId<
  Pick<
    Invitation,
    | 'shopId'
    | 'email'
    | 'order'
    | 'dedupe'
    | 'language'
    | 'customer_name'
    | 'client'
    | 'platform_version'
    | 'plugin_version'
    | 'created'
    | 'scheduled'
  >
>;

/** What an invitation e-mail is made of. */
export type Sendable = Pick<
  Invitation,
  'shopId' | 'email' | 'language' | 'customer_name' | 'token' | 'unsubscribeToken'
>;

/** An invitation e-mail still to be sent (queue.ts). */
export interface QueuedInvitation {
  /** The invitation's `_id`. */
  _id: ObjectId;
  /** When to try next: the invitation's `scheduled`, later a retry time. */
  due: Date;
  /** Failed attempts so far. */
  attempts: number;
  lastError: string | null;
}

type OutcomeStatus = 'sent' | 'failed' | 'suppressed';

/** How an invitation e-mail ended: insert-only, one per invitation (queue.ts). */
export interface InvitationOutcome {
  _id: ObjectId;
  status: OutcomeStatus;
  at: Date;
  messageId: string | null;
  /** Why it failed or was not sent (`unsubscribed`); null when sent. */
  reason: string | null;
}
