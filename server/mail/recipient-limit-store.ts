// E-mails to an address an anonymous requester typed (the confirmation link of the serviceAddReview form and of an
// unsigned pop-up review) are limited per recipient: whatever they say, anyone could otherwise make the service mail
// anyone, under a shop's name and our DKIM signature, as often as the per-address limits of their requests allow.
//
// The count is shared by every process and shop (db/window-places.ts): one document per place,
// `<UTC day>:<sha256 of the mailbox>:<n>`. No address is stored, so an erasure has nothing to find here.
import { sha256Hex } from '../hash.js';
import type { Db } from '../db/index.js';
import { WindowPlaces, type Windows } from '../db/window-places.js';
import { tooManyRequests } from '../http/rate-limit.js';

/** A person may make three mistakes a day; a fourth request for the same mailbox is no longer a typo. */
export const MAILS_PER_RECIPIENT_PER_DAY = 3;

const RECIPIENT_LIMIT_MESSAGE = 'Too many e-mails to this address today. Please try again tomorrow.';

const DAY_MS = 86_400_000;

/**
 * The mailbox an address reaches, as far as common providers tell: case, `+tag` sub-addresses and Gmail's dots
 * change the address, not the recipient. Erring towards "the same" only makes the limit stricter.
 */
export function mailboxOf(email: string): string {
  const address = email.trim().toLowerCase();
  const at = address.lastIndexOf('@');
  let local = address.slice(0, at).split('+')[0]!;
  let domain = address.slice(at + 1).replace(/\.$/, '');
  if (domain === 'googlemail.com') domain = 'gmail.com';
  if (domain === 'gmail.com') local = local.replace(/\./g, '');
  return `${local}@${domain}`;
}

export const utcDay = (at: Date): string => at.toISOString().slice(0, 10);

/** What a recipient's places are counted under: a digest of the mailbox, so the places hold no address. */
export const recipientKey = (email: string): string => sha256Hex(mailboxOf(email));

/** Seconds until the next UTC day, when the places are free again (at least 1, for Retry-After). */
export function secondsUntilNextDay(at: Date): number {
  return Math.max(1, Math.ceil((DAY_MS - (at.getTime() % DAY_MS)) / 1000));
}

/** UTC days, named as `utcDay` names them. */
const DAYS: Windows = { nameOf: (at) => utcDay(at), secondsLeft: (at) => secondsUntilNextDay(at) };

export class RecipientLimit {
  private readonly places: WindowPlaces;

  constructor(
    db: Db,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.places = new WindowPlaces(db, 'mail_recipient_limits', MAILS_PER_RECIPIENT_PER_DAY, DAYS, now);
  }

  /** Takes one of today's places for an e-mail to `email`; false when all are taken. */
  async take(email: string): Promise<boolean> {
    return (await this.places.take(recipientKey(email))) === 0;
  }

  /** Takes a place or throws the 429 the embed shows, with Retry-After at the next UTC day. */
  async admit(email: string): Promise<void> {
    if (await this.take(email)) return;
    throw tooManyRequests(secondsUntilNextDay(this.now()), RECIPIENT_LIMIT_MESSAGE);
  }

  /** Removes the places of earlier days (the hourly clean-up). */
  removeEarlierDays(): Promise<number> {
    return this.places.removeEarlierWindows();
  }
}
