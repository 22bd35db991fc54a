// The rules of reviews as pure functions: the sub-scores, the shop's badges, how much a pop-up review is trusted,
// and when its edit e-mail is due. The services and routes do the I/O around them.
import { addDays } from '../time.js';
import type { ReviewPhoto } from './model.js';

export const SUB_RATINGS = ['shippingtime', 'customerservice', 'pricequality', 'aftersale'] as const;
export type SubRatingKey = (typeof SUB_RATINGS)[number];
/** Sub-scores 1–5; 0 means "not given" and is left out of averages. */
export type SubRatings = Record<SubRatingKey, number>;

/** How long a review waits for its writer's confirmation before it is removed. */
export const CONFIRMATION_DAYS = 30;

export const noSubRatings = (): SubRatings => ({ shippingtime: 0, customerservice: 0, pricequality: 0, aftersale: 0 });

export type Badge =
  | { key: 'approved'; since: string }
  | { key: 'verified_share'; value: number }
  | { key: 'member_years'; value: number };

/** Whole years from `from` to `to` (an anniversary counts on its day). */
export function wholeYears(from: Date, to: Date): number {
  let years = to.getUTCFullYear() - from.getUTCFullYear();
  const beforeAnniversary =
    to.getUTCMonth() < from.getUTCMonth() ||
    (to.getUTCMonth() === from.getUTCMonth() && to.getUTCDate() < from.getUTCDate());
  if (beforeAnniversary) years--;
  return Math.max(0, years);
}

/**
 * The badges a shop has earned: approved once the operator approved it, the share of verified-customer reviews
 * once it has a published review, and whole years of membership from its first anniversary.
 */
export function badgesFor(
  shop: { approved_date: string | null; created: Date },
  published: { total: number; verified: number },
  now: Date,
): Badge[] {
  const badges: Badge[] = [];
  if (shop.approved_date) badges.push({ key: 'approved', since: shop.approved_date });
  if (published.total > 0) {
    badges.push({ key: 'verified_share', value: Math.round((100 * published.verified) / published.total) });
  }
  const years = wholeYears(shop.created, now);
  if (years >= 1) badges.push({ key: 'member_years', value: years });
  return badges;
}

export interface PopupTrust {
  status: 'published' | 'pending_confirmation';
  quarantine: boolean;
  verified: boolean;
  /** When the edit e-mail is due; null while the review waits for confirmation. */
  editMailDue: Date | null;
}

/**
 * How a review written in the pop-up is stored. Only the shop's signature proves the order: a signed order's review
 * is published at once as a verified customer's; an unsigned one waits (quarantined) until its writer confirms
 * their address (published as e-mail confirmed) or the shop's own invitation proves the order (verified; see
 * release.ts).
 */
export function popupTrust(signed: boolean, consentCreated: Date, inviteDelay: number): PopupTrust {
  if (signed) {
    return {
      status: 'published',
      quarantine: false,
      verified: true,
      editMailDue: editMailDue(consentCreated, inviteDelay),
    };
  }
  return { status: 'pending_confirmation', quarantine: true, verified: false, editMailDue: null };
}

/** The edit e-mail follows the order's invite delay, counted from the customer's choice in the pop-up. */
function editMailDue(consentCreated: Date, inviteDelay: number): Date {
  return addDays(consentCreated, inviteDelay);
}

/** A released review's edit e-mail: when it would have been due, or now if that moment has passed. */
export function editMailDueOnRelease(consentCreated: Date | null, inviteDelay: number, now: Date): Date {
  if (!consentCreated) return now;
  const due = editMailDue(consentCreated, inviteDelay);
  return due > now ? due : now;
}

/** Reviews of a pop-up or form that wait for confirmation carry a confirmation token; nothing else is released. */
export function awaitsConfirmation(review: {
  confirmToken: string | null;
  quarantine: boolean;
  deleted: boolean;
}): boolean {
  return review.confirmToken !== null && review.quarantine && !review.deleted;
}

/** Case-insensitive: shops and customers do not agree on the case of an address. */
export function sameEmail(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase() && a.trim() !== '';
}

/** Photos taken off: their files are deleted (photos/service.ts); the ids stay, so that the deletion is known. */
export function removedPhotos(photos: readonly ReviewPhoto[]): ReviewPhoto[] {
  return photos.map((p) => ({ ...p, state: 'removed', alt: '' }));
}

/** A photo still on the review (shown, held or being encoded): one a removal or redaction can withhold. */
export const photoIsOn = (p: ReviewPhoto): p is ReviewPhoto & { state: 'pending' | 'held' | 'shown' } =>
  p.state === 'pending' || p.state === 'held' || p.state === 'shown';

/**
 * Photos a decision takes while it can be contested: hidden, their files kept, their state remembered so that a
 * reversal gives them back as they were. Those withheld or removed already stay so.
 */
export function withheldPhotos(photos: readonly ReviewPhoto[], only?: readonly string[]): ReviewPhoto[] {
  return photos.map((p) =>
    photoIsOn(p) && (!only || only.includes(p.id)) ? { ...p, state: 'withheld', withheldFrom: p.state } : p,
  );
}

/** A reversed decision gives back the photos it withheld, in the state they had (older records: shown). */
export function givenBackPhotos(photos: readonly ReviewPhoto[], taken: readonly string[]): ReviewPhoto[] {
  return photos.map((p) => {
    if (p.state !== 'withheld' || !taken.includes(p.id)) return p;
    const { withheldFrom, ...rest } = p;
    return { ...rest, state: withheldFrom ?? 'shown' };
  });
}

/** The decision's six months are over (or its writer erased): withheld photos go for good, their files deleted. */
export function withheldPhotosRemoved(photos: readonly ReviewPhoto[], only?: readonly string[]): ReviewPhoto[] {
  return photos.map((p) => {
    if (p.state !== 'withheld' || (only && !only.includes(p.id))) return p;
    const { withheldFrom: _, ...rest } = p;
    return { ...rest, state: 'removed', alt: '' };
  });
}
