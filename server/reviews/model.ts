// The review as stored, and the shapes the single write path (store.ts) takes and leaves: what a new review gives,
// what a write may change, the event a version causes and the followers that record it. Types only, so any feature
// may read them without depending on the store.
import type { Language } from '../languages.js';
import type { ReviewOrigin } from './origin.js';
import type { SubRatings } from './rules.js';

export interface ReviewProduct {
  /** The `order_data.products[].id` the shop sent. */
  external_id: string;
  name: string;
  url: string;
  image_url: string;
  sku: string;
  gtin: string;
  mpn: string;
  brand: string;
  /** 1–5 once the customer rated the product; null while not rated. */
  rating: number | null;
  content: string;
}

/**
 * What a review written through an invitation's link takes of the invitation (publication.ts): declared here, by the
 * reviews, so that they import nothing of the invitations (which build on the reviews); invitations/model.ts's
 * `Invitation` has these fields, and the type-checker proves it where the page hands one over.
 */
export interface InvitationOrigin {
  shopId: number;
  email: string;
  language: Language;
  order: string;
  created: Date;
  /** The review link's secret: claimed once, before the review is written. */
  token: string;
  incentivised?: boolean;
  products: Omit<ReviewProduct, 'rating' | 'content'>[];
}

export interface Reply {
  text: string;
  date: Date;
  /** The customer asked to be told (the reply e-mail is sent by the scheduler). */
  notify: boolean;
  /** Counts replies to this review, so each replacement has its own e-mail identity. */
  revision: number;
  /** When the notification e-mail was sent; null while pending or not wanted. */
  notified: Date | null;
}

export type ReviewSource = 'invitation' | 'popup' | 'form' | 'import';

/**
 * A photo of the review (server/photos/): its files are named by `id`. `pending` until the worker has re-encoded
 * it; then `shown` (public while the review is), or `held` for the operator's look (PHOTO_REVIEW=operator);
 * `removed` once taken off (its files are queued for deletion) or unreadable; `withheld` when a redaction took it
 * or a removal took its review (hidden, its files kept while the decision can be contested: server/moderation).
 */
export interface ReviewPhoto {
  id: string;
  state: 'pending' | 'held' | 'shown' | 'removed' | 'withheld';
  /** The writer's description (≤ 200 characters), its alternative text; '' for the default one. */
  alt: string;
  /** Of the large WebP (≤ 1600 px on the long side) and of the thumbnail; 0 while pending. */
  width: number;
  height: number;
  thumbWidth: number;
  thumbHeight: number;
  /** While `withheld`: the state it had, given back when the decision is reversed on appeal. */
  withheldFrom?: 'pending' | 'held' | 'shown';
}

export interface Review {
  id: number;
  shopId: number;
  name: string;
  email: string;
  /** Overall score 1–5. */
  rating: number;
  ratings: SubRatings;
  comment: string | null;
  language: Language;
  /** Two-letter country code (upper case), or ''. */
  country: string;
  order: string;
  created: Date;
  modified: Date;
  read: boolean;
  quarantine: boolean;
  is_spam: boolean;
  /** Operator's verdict that the review may be published (the feed's `valid`). */
  valid: boolean;
  deleted: boolean;
  /**
   * The ground the operator removed the review on (server/moderation/schema.ts GROUNDS); absent otherwise. Internal
   * (the policy page counts `review_removals`), so camelCase; stored as `removal_ground` before (migrations/removal-ground.ts).
   */
  removalGround?: string | null;
  /** Derived: visible in public displays (not deleted, quarantined or spam, and valid). */
  published: boolean;
  /** Set once the review has been published: from then on changes are `reviews.updated` events. */
  announced: boolean;
  /** Written by a customer of the order: an invitation's link, signed order data, or the shop's own Add invitation. */
  verified: boolean;
  /**
   * The writer confirmed their address by the e-mailed link. It proves the address, not the order: such a review
   * is published but not verified (docs/decisions.md). Absent on reviews stored before it existed: false.
   */
  emailConfirmed?: boolean;
  source: ReviewSource;
  // The origin fields are absent on reviews that a process of an older version wrote (the start-up migration,
  // migrations/review-origins.ts, sets them on those stored before it ran): read them through originFields() (origin.ts).
  /** How the review was checked (origin.ts), derived on every write from `source` and `verified`. */
  origin?: ReviewOrigin;
  /** The writer was offered something for the review: by the invitation, the import or the operator. */
  incentivised?: boolean;
  /** Imports: the platform the review came from (free text as the operator gave it); null otherwise. */
  imported_from?: string | null;
  /** Imports: the date the review carried on that platform; null otherwise. */
  original_date?: Date | null;
  /** Imports: what the source platform said about the writer's purchase. It proves nothing here (never `verified`). */
  source_verified?: boolean;
  /** Bulk imports (server/imports/): the import that wrote the review, so that it can be undone as a whole. */
  import_id?: string;
  /** Bulk imports: the review's title on its platform ('' when none). */
  title?: string;
  /** Bulk imports: the source platform's status of a review held for the operator (e.g. `Unpublished`). */
  source_status?: string;
  /** Bulk imports: the order number the file gave, kept apart from `order` so it proves nothing here. */
  source_order?: string;
  /** Bulk imports: photo URLs from the file, kept as data only: never shown or hot-linked. */
  photo_urls?: string[];
  /**
   * When the experience took place (experience.ts): `YYYY-MM-DD`, the order's date, or `YYYY-MM`, the month a form
   * review's writer named. Bulk imports from the dashboard (server/imports/) store the file's order date as a Date,
   * or null when the file had none. Absent on reviews stored before it existed: read it through experienceDateOf().
   */
  experience_date?: string | Date | null;
  products: ReviewProduct[];
  /** Absent on reviews without photos (and those stored before photos existed). */
  photos?: ReviewPhoto[];
  reply: Reply | null;
  /**
   * When the last e-mail about a reply to this review went out, whichever revision (ReviewStore.markMailSent): the
   * next waits a day from it (mail/review-queue.ts). Mail bookkeeping, kept when the reply is replaced or removed.
   * Absent until a reply e-mail is sent.
   */
  replyMailSent?: Date | null;
  /** Secret of the writer's edit link (`/edit/{token}`); null when the review has none. */
  editToken: string | null;
  /** When the edit e-mail is due (pop-up reviews: after the order's inviteDelay); null when none is to be sent. */
  editMailDue: Date | null;
  editMailSent: Date | null;
  /** Secret of the confirmation link for reviews that wait for their writer's confirmation; null when none. */
  confirmToken: string | null;
  confirmMailSent: Date | null;
  version: number;
  /**
   * The event this version caused (null: none). Kept with the version, so that a write interrupted before its
   * event was recorded can be redone from the review (finishInterruptedWrites). Versions before the event queue
   * cleared it once the event was recorded: the start-up migration queues those still set.
   */
  pendingEvent: ReviewTopic | null;
}

export type ReviewTopic = 'reviews.created' | 'reviews.updated' | 'reviews.deleted';

export interface ReviewEvent {
  /** `<review id>:<version>`: one event per review version, so recording it twice is harmless. */
  _id: string;
  shopId: number;
  reviewId: number;
  version: number;
  topic: ReviewTopic;
  created: Date;
  /** The review as this version was written: the payload is built from it, without reading the reviews. */
  review: Review;
}

/**
 * Records what a review write leaves for later (an event, e-mails to send), right after the write. `before` is
 * undefined for a new review and for a repair, which redoes whatever the review as stored calls for: so each
 * follower must be idempotent.
 */
export interface WriteFollower {
  follow(before: Review | undefined, after: Review): Promise<void>;
}

export type NewReview = Pick<Review, 'name' | 'email' | 'rating' | 'language'> &
  Partial<
    Pick<
      Review,
      | 'ratings'
      | 'comment'
      | 'country'
      | 'order'
      | 'created'
      | 'quarantine'
      | 'is_spam'
      | 'valid'
      | 'verified'
      | 'emailConfirmed'
      | 'source'
      | 'incentivised'
      | 'imported_from'
      | 'original_date'
      | 'source_verified'
      | 'experience_date'
      | 'products'
      | 'photos'
      | 'read'
      | 'editToken'
      | 'editMailDue'
      | 'confirmToken'
    >
  >;

/**
 * What the single write path may change. Mail bookkeeping (editMailSent, confirmMailSent, reply.notified) is not a
 * change of the review: the mailer sets it directly on the collection, without a new version or event.
 */
export type ReviewChanges = Partial<
  Pick<
    Review,
    | 'name'
    | 'email'
    | 'rating'
    | 'ratings'
    | 'comment'
    | 'country'
    | 'read'
    | 'quarantine'
    | 'is_spam'
    | 'valid'
    | 'verified'
    | 'emailConfirmed'
    | 'incentivised'
    | 'products'
    | 'photos'
    | 'reply'
    | 'language'
    | 'editToken'
    | 'editMailDue'
    | 'confirmToken'
    | 'order'
    | 'title'
    | 'source_order'
    | 'photo_urls'
  >
>;

/** What a bulk import gives for each review (server/imports/service.ts); the rest is the same for every import. */
export type ImportedReviewDraft = Pick<
  Review,
  'name' | 'email' | 'rating' | 'comment' | 'language' | 'country' | 'quarantine' | 'incentivised'
> & {
  imported_from: string;
  original_date: Date;
  source_verified: boolean;
  import_id: string;
  title: string;
  experience_date: Date | null;
  source_status: string;
  source_order: string;
  photo_urls: string[];
  reply: { text: string; date: Date } | null;
  /** The products the review names (a round trip of our own export); none otherwise. */
  products?: ReviewProduct[];
};

/** The shop page's orders (pages/listing.ts) as the database sorts them (reviews/store.ts `publishedChosen`). */
export type ChosenSort = 'newest' | 'oldest' | 'highest' | 'lowest';

/** A shopper's filter on the shop page: the star ratings shown (empty: all), only reviews with shown photos. */
export interface ChosenFilter {
  stars: readonly number[];
  photos: boolean;
  /** Only these reviews, or all but these (the "helpful" order reads the voted ones apart). */
  only?: readonly number[];
  except?: readonly number[];
}

/** A review token of the pop-up as stored (popup-token-store.ts): what the consent said about the order. */
export interface PopupToken {
  /** SHA-256 of the token, lowercase hex. */
  hash: string;
  shopId: number;
  order: string;
  /** '' when the order data carried none: the review form then asks for it. */
  email: string;
  firstName: string;
  inviteDelay: number;
  signed: boolean;
  language: Language;
  consentCreated: Date;
  expires: Date;
  /** When a review was submitted with it; null before. */
  used: Date | null;
}
