// What an export holds of each review and invitation: one record per item, the same in both formats. JSON carries
// the record as it is; CSV flattens it into the columns below, whose names and order are part of the format (an
// import of our own file, other installations' included, reads them by name). Pure: no I/O.
//
// Designed to be read back without loss: the review's id (stable: it never changes, and an import keyed by
// platform and id finds a second import of the same file), every date in ISO 8601 UTC, the original and experience
// dates where the review has them, the reply with its date, the products, the photos' URLs, and the status.
import type { Review } from '../reviews/model.js';
import { originFields } from '../reviews/origin.js';
import { SUB_RATINGS, type SubRatingKey } from '../reviews/rules.js';
import type { ListedRecord } from '../invitations/store.js';
import { statusOf } from '../dashboard/review-view.js';

/** Whether the export carries e-mail addresses (operator and owners) or leaves them empty (managers). */
export type Addresses = 'included' | 'withheld';

const iso = (d: Date | string | null | undefined): string | null => (d ? new Date(d).toISOString() : null);

/** A product of a review as exported: the shop's product id and what the shop said of it, with its rating. */
interface ExportedProduct {
  id: string;
  name: string;
  url: string;
  image_url: string;
  sku: string;
  gtin: string;
  mpn: string;
  brand: string;
  rating: number | null;
  comment: string;
}

export interface ReviewRecord {
  id: number;
  status: ReturnType<typeof statusOf>;
  origin: string;
  source: string;
  verified: boolean;
  incentivised: boolean;
  imported_from: string | null;
  original_date: string | null;
  experience_date: string | null;
  created: string;
  modified: string;
  name: string;
  /** null when the export withholds addresses (or the review has none left: deleted reviews are blanked). */
  email: string | null;
  rating: number;
  ratings: Record<SubRatingKey, number>;
  comment: string | null;
  language: string;
  country: string;
  order: string;
  products: ExportedProduct[];
  /** The shop's replies, oldest first (a review has at most one today). */
  replies: { text: string; date: string }[];
  photo_urls: string[];
}

/**
 * The experience date (when the customer bought or used what they reviewed) is set by imports from a file's order
 * date; reviews written before it existed have none.
 */
type StoredReview = Review & { experience_date?: Date | null };

export function reviewRecord(review: StoredReview, addresses: Addresses, photoUrls: readonly string[]): ReviewRecord {
  const origin = originFields(review);
  return {
    id: review.id,
    status: statusOf(review),
    origin: origin.origin,
    source: review.source,
    verified: review.verified,
    incentivised: origin.incentivised,
    imported_from: origin.imported_from,
    original_date: origin.original_date,
    experience_date: iso(review.experience_date),
    created: review.created.toISOString(),
    modified: review.modified.toISOString(),
    name: review.name,
    email: addresses === 'included' && review.email ? review.email : null,
    rating: review.rating,
    ratings: Object.fromEntries(SUB_RATINGS.map((k) => [k, review.ratings?.[k] ?? 0])) as Record<SubRatingKey, number>,
    comment: review.comment,
    language: review.language,
    country: review.country,
    order: review.order,
    products: (review.products ?? []).map((p) => ({
      id: p.external_id,
      name: p.name,
      url: p.url,
      image_url: p.image_url,
      sku: p.sku,
      gtin: p.gtin,
      mpn: p.mpn,
      brand: p.brand,
      rating: p.rating,
      comment: p.content,
    })),
    replies: review.reply ? [{ text: review.reply.text, date: review.reply.date.toISOString() }] : [],
    photo_urls: [...photoUrls],
  };
}

type Cell = string | number | boolean | null;

/**
 * The review CSV's columns, in order: `products` is the JSON array of the record (a review may name several), and
 * `photo_urls` the URLs separated by spaces (a URL holds none); `reply`/`reply_date` the shop's reply.
 */
export const REVIEW_COLUMNS: readonly [string, (r: ReviewRecord) => Cell][] = [
  ['id', (r) => r.id],
  ['status', (r) => r.status],
  ['origin', (r) => r.origin],
  ['source', (r) => r.source],
  ['verified', (r) => r.verified],
  ['incentivised', (r) => r.incentivised],
  ['imported_from', (r) => r.imported_from],
  ['original_date', (r) => r.original_date],
  ['experience_date', (r) => r.experience_date],
  ['created', (r) => r.created],
  ['modified', (r) => r.modified],
  ['name', (r) => r.name],
  ['email', (r) => r.email],
  ['rating', (r) => r.rating],
  ...SUB_RATINGS.map((k): [string, (r: ReviewRecord) => Cell] => [k, (r) => r.ratings[k]]),
  ['comment', (r) => r.comment],
  ['language', (r) => r.language],
  ['country', (r) => r.country],
  ['order', (r) => r.order],
  ['products', (r) => (r.products.length ? JSON.stringify(r.products) : '')],
  ['reply', (r) => r.replies.at(-1)?.text ?? null],
  ['reply_date', (r) => r.replies.at(-1)?.date ?? null],
  ['photo_urls', (r) => r.photo_urls.join(' ')],
];

/** Where an invitation stands, as the dashboard's list says it (dashboard/invitations.ts stateOf). */
export interface InvitationState {
  state: string;
  reason: string | null;
  sent_at: string | null;
}

export interface InvitationRecord {
  id: string;
  email: string | null;
  order: string;
  name: string;
  language: string;
  created: string;
  send_at: string;
  state: string;
  reason: string | null;
  sent_at: string | null;
  client: string | null;
  platform_version: string | null;
  plugin_version: string | null;
}

export function invitationRecord(
  invitation: ListedRecord,
  addresses: Addresses,
  state: InvitationState,
): InvitationRecord {
  return {
    id: invitation._id.toHexString(),
    email: addresses === 'included' ? invitation.email : null,
    order: invitation.order,
    name: invitation.customer_name,
    language: invitation.language,
    created: invitation.created.toISOString(),
    send_at: invitation.scheduled.toISOString(),
    state: state.state,
    reason: state.reason,
    sent_at: state.sent_at,
    client: invitation.client,
    platform_version: invitation.platform_version,
    plugin_version: invitation.plugin_version,
  };
}

export const INVITATION_COLUMNS: readonly [string, (r: InvitationRecord) => Cell][] = [
  ['id', (r) => r.id],
  ['email', (r) => r.email],
  ['order', (r) => r.order],
  ['name', (r) => r.name],
  ['language', (r) => r.language],
  ['created', (r) => r.created],
  ['send_at', (r) => r.send_at],
  ['state', (r) => r.state],
  ['reason', (r) => r.reason],
  ['sent_at', (r) => r.sent_at],
  ['client', (r) => r.client],
  ['platform_version', (r) => r.platform_version],
  ['plugin_version', (r) => r.plugin_version],
];
