// E-mails to an address an anonymous requester typed (the confirmation link of the serviceAddReview form and of an
// unsigned pop-up review) are limited per recipient: whatever they say, anyone could otherwise make the service mail
// anyone, under a shop's name and our DKIM signature, as often as the per-address limits of their requests allow.
//
// The count is shared by every process and shop: one document per place, `<UTC day>:<sha256 of the mailbox>:<n>`,
// taken by a unique insert, so of concurrent requests for the last place exactly one gets it (FerretDB's updates are
// not atomic, an `$inc` there can lose a count). No address is stored, so an erasure has nothing to find here.
import { sha256Hex } from '../hash.js';
import type { Collection, Db } from '../db/index.js';
import { isDuplicateKey } from '../db/index.js';
import { tooManyRequests } from '../http/rate-limit.js';

/** A person may make three mistakes a day; a fourth request for the same mailbox is no longer a typo. */
export const MAILS_PER_RECIPIENT_PER_DAY = 3;

const RECIPIENT_LIMIT_MESSAGE = 'Too many e-mails to this address today. Please try again tomorrow.';

const DAY_MS = 86_400_000;

interface RecipientPlace {
  _id: string;
  created: Date;
}

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

/** The day's places of one mailbox sort together, and every earlier day's before the current one. */
export function placeId(day: string, email: string, place: number): string {
  return `${day}:${sha256Hex(mailboxOf(email))}:${place}`;
}

/** Seconds until the next UTC day, when the places are free again (at least 1, for Retry-After). */
export function secondsUntilNextDay(at: Date): number {
  return Math.max(1, Math.ceil((DAY_MS - (at.getTime() % DAY_MS)) / 1000));
}

export class RecipientLimit {
  private readonly collection: Collection<RecipientPlace>;

  constructor(
    db: Db,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.collection = db.collection<RecipientPlace>('mail_recipient_limits');
  }

  /** Takes one of today's places for an e-mail to `email`; false when all are taken. */
  async take(email: string): Promise<boolean> {
    const now = this.now();
    const day = utcDay(now);
    for (let place = 1; place <= MAILS_PER_RECIPIENT_PER_DAY; place++) {
      try {
        await this.collection.insertOne({ _id: placeId(day, email, place), created: now });
        return true;
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
      }
    }
    return false;
  }

  /** Takes a place or throws the 429 the embed shows, with Retry-After at the next UTC day. */
  async admit(email: string): Promise<void> {
    if (await this.take(email)) return;
    throw tooManyRequests(secondsUntilNextDay(this.now()), RECIPIENT_LIMIT_MESSAGE);
  }

  /** Removes the places of earlier days: one range delete on `_id` (an index look-up on MongoDB). */
  async removeEarlierDays(): Promise<number> {
    const result = await this.collection.deleteMany({ _id: { $lt: `${utcDay(this.now())}:` } });
    return result.deletedCount;
  }
}
