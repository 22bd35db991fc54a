// What an export holds of each review and invitation: one record per item, the same in both formats. JSON carries
// the record as it is; CSV flattens it into the columns below, whose names and order are part of the format (an
// import of our own file, other installations' included, reads them by name). Pure: no I/O.
//
// Designed to be read back without loss: the review's id (stable: it never changes, and an import keyed by
// platform and id finds a second import of the same file), every date in ISO 8601 UTC, the original and experience
// dates where the review has them, the reply with its date, the products, the photos' URLs, and the status.
import { z } from 'zod';
import type { Review } from '../reviews/model.js';
import { ORIGINS, originFields } from '../reviews/origin.js';
import { SUB_RATINGS, type SubRatingKey } from '../reviews/rules.js';
import type { ListedRecord } from '../invitations/model.js';
import { REVIEW_STATUSES, statusOf } from '../dashboard/review-view.js';

/** Whether the export carries e-mail addresses (operator and owners) or leaves them empty (managers). */
export type Addresses = 'included' | 'withheld';

const iso = (d: Date | string | null | undefined): string | null => (d ? new Date(d).toISOString() : null);

const isoDate = z.string().describe('ISO 8601, UTC');
const nullableIso = isoDate.nullable();

/** A product of a review as exported: the shop's product id and what the shop said of it, with its rating. */
const exportedProduct = z.object({
  id: z.string().describe("the shop's product id (order_data.products[].id)"),
  name: z.string(),
  url: z.string(),
  image_url: z.string(),
  sku: z.string(),
  gtin: z.string(),
  mpn: z.string(),
  brand: z.string(),
  rating: z.number().int().nullable().describe('1–5; null when the customer did not rate the product'),
  comment: z.string(),
});

/** A review as exported (JSON: as it is; CSV: REVIEW_COLUMNS). Also the OpenAPI document's schema of it. */
export const reviewRecordSchema = z.object({
  id: z.number().int().describe("the review's id: stable, never reused"),
  status: z.enum(REVIEW_STATUSES),
  origin: z.enum(ORIGINS),
  source: z.enum(['invitation', 'popup', 'form', 'import']),
  verified: z.boolean().describe('the order was proven'),
  incentivised: z.boolean(),
  imported_from: z.string().nullable(),
  original_date: nullableIso.describe('imports: the date the review carried on the platform it came from'),
  experience_date: nullableIso.describe('when the customer bought or used what they reviewed, where known'),
  created: isoDate,
  modified: isoDate,
  name: z.string(),
  email: z.string().nullable().describe("null when the export withholds addresses (a manager's), or none is left"),
  rating: z.number().int().describe('1–5'),
  ratings: z
    .object(Object.fromEntries(SUB_RATINGS.map((k) => [k, z.number().int()])) as Record<SubRatingKey, z.ZodNumber>)
    .describe('sub-scores 1–5, 0 = not given'),
  comment: z.string().nullable(),
  language: z.string(),
  country: z.string(),
  order: z.string(),
  products: z.array(exportedProduct),
  replies: z.array(z.object({ text: z.string(), date: isoDate })).describe("the shop's replies, oldest first"),
  photo_urls: z.array(z.string()).describe('empty when the review has no photos'),
  title: z.string().describe("imports: the review's title on its platform ('' when none)"),
});
export type ReviewRecord = z.infer<typeof reviewRecordSchema>;

export function reviewRecord(review: Review, addresses: Addresses, photoUrls: readonly string[]): ReviewRecord {
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
    // Bulk imports store the file's order date (a Date, or null); other reviews `YYYY-MM-DD` or `YYYY-MM` (issue 21:
    // a month is exported as its first day); reviews written before either existed have none.
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
    title: review.title ?? '',
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
  ['title', (r) => r.title],
];

/** Where an invitation stands, as the dashboard's list says it (dashboard/invitations.ts stateOf). */
export interface InvitationState {
  state: InvitationRecord['state'];
  reason: string | null;
  sent_at: string | null;
}

/** An invitation as exported (JSON: as it is; CSV: INVITATION_COLUMNS). */
export const invitationRecordSchema = z.object({
  id: z.string(),
  email: z.string().nullable(),
  order: z.string(),
  name: z.string(),
  language: z.string(),
  created: isoDate,
  send_at: isoDate.describe('when the e-mail is (or was) due'),
  state: z.enum(['queued', 'sent', 'failed', 'not_sent']),
  reason: z.string().nullable().describe('why it failed or was not sent'),
  sent_at: nullableIso,
  client: z.string().nullable(),
  platform_version: z.string().nullable(),
  plugin_version: z.string().nullable(),
});
type InvitationRecord = z.infer<typeof invitationRecordSchema>;

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
