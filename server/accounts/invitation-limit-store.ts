// Adding a user to a team e-mails them a sign-in link. Owners' additions are limited per UTC day, per shop and per
// address, counted in every process alike (db/window-places.ts), so that no owner can make the service mail an
// address, or many, without end. The places are kept by the shop's id and the address's digest: no address is
// stored. Places of earlier days go with the hourly clean-up.
import type { Db } from '../db/index.js';
import { fixedWindows, WindowPlaces } from '../db/window-places.js';
import { sha256Hex } from '../hash.js';
import { addressKey } from './rules.js';

/** Additions a shop's owners may make in a day: a team is not hired at once. */
export const INVITATIONS_PER_SHOP_PER_DAY = 20;
/** Additions of one address a day, whichever shops make them: a mistake put right, not an inbox flooded. */
export const INVITATIONS_PER_ADDRESS_PER_DAY = 3;

const DAY_MS = 86_400_000;

/** Which limit an addition ran into, and the seconds until its day ends (Retry-After). */
export interface LimitReached {
  limit: 'shop' | 'address';
  waitSeconds: number;
}

export class InvitationLimitStore {
  private readonly perShop: WindowPlaces;
  private readonly perAddress: WindowPlaces;

  constructor(db: Db, now: () => Date = () => new Date()) {
    const days = fixedWindows(DAY_MS);
    this.perShop = new WindowPlaces(db, 'dashboard_team_invitation_limits', INVITATIONS_PER_SHOP_PER_DAY, days, now);
    this.perAddress = new WindowPlaces(
      db,
      'dashboard_team_invitation_limits',
      INVITATIONS_PER_ADDRESS_PER_DAY,
      days,
      now,
    );
  }

  /**
   * Takes the shop's place first: an owner whose shop has used its day cannot use up the places of the addresses
   * they go on typing (which would keep other shops from adding those people). Null when both were free.
   */
  async take(shopId: number, email: string): Promise<LimitReached | null> {
    const shopWait = await this.perShop.take(`shop:${shopId}`);
    if (shopWait > 0) return { limit: 'shop', waitSeconds: shopWait };
    const addressWait = await this.perAddress.take(`address:${sha256Hex(addressKey(email))}`);
    return addressWait > 0 ? { limit: 'address', waitSeconds: addressWait } : null;
  }

  /** Removes the places of earlier days (both limits share the collection). */
  removeEarlierDays(): Promise<number> {
    return this.perShop.removeEarlierWindows();
  }
}
