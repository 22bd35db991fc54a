// Sign-in links. The e-mail holds a random secret; `dashboard_sign_in_links` holds its SHA-256 as `_id`. Using a
// link inserts its digest into `dashboard_sign_in_uses`: an insert with a unique `_id` is atomic on MongoDB and on
// FerretDB alike, so of two requests racing with the same link exactly one signs in. Both are removed by the
// hourly clean-up once the link has expired.
import type { Collection, Db } from '../db/index.js';
import { isDuplicateKey } from '../db/index.js';
import { fixedWindows, WindowPlaces } from '../db/window-places.js';

/**
 * Links an address may be sent per clock hour and per UTC day: a typo retried, not an inbox flooded. Past them the
 * request is answered as any other and sends nothing (service.ts requestSignInLink): a stranger asking for someone's
 * links spends that person's e-mails, never their sign-in.
 */
export const LINKS_PER_ADDRESS_PER_HOUR = 5;
export const LINKS_PER_ADDRESS_PER_DAY = 20;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

interface SignInLink {
  digest: string;
  userId: number;
  created: Date;
  expires: Date;
}

interface LinkDoc extends Omit<SignInLink, 'digest'> {
  _id: string;
}

interface UseDoc {
  _id: string;
  at: Date;
  /** When the link would have expired: the clean-up keeps the use until then. */
  expires: Date;
}

export class SignInLinkStore {
  private readonly links: Collection<LinkDoc>;
  private readonly uses: Collection<UseDoc>;

  /** Links sent per address, counted in every process alike (an inbox is flooded across processes too). */
  private readonly perHour: WindowPlaces;
  private readonly perDay: WindowPlaces;

  constructor(db: Db, now: () => Date = () => new Date()) {
    this.links = db.collection<LinkDoc>('dashboard_sign_in_links');
    this.uses = db.collection<UseDoc>('dashboard_sign_in_uses');
    // Two collections: each range delete of earlier windows must see only its own windows' names.
    this.perHour = new WindowPlaces(
      db,
      'dashboard_sign_in_limits',
      LINKS_PER_ADDRESS_PER_HOUR,
      fixedWindows(HOUR_MS),
      now,
    );
    this.perDay = new WindowPlaces(
      db,
      'dashboard_sign_in_limits_daily',
      LINKS_PER_ADDRESS_PER_DAY,
      fixedWindows(DAY_MS),
      now,
    );
  }

  /**
   * Takes a place for one more link to the address behind `addressDigest` (a digest: the places hold no address);
   * false when this hour's or this day's are all taken. The hour is asked first, so the requests it refuses do not
   * spend the day's places.
   */
  async takeLinkPlace(addressDigest: string): Promise<boolean> {
    if ((await this.perHour.take(addressDigest)) > 0) return false;
    return (await this.perDay.take(addressDigest)) === 0;
  }

  async add(link: SignInLink): Promise<void> {
    const { digest, ...rest } = link;
    await this.links.insertOne({ _id: digest, ...rest });
  }

  async byDigest(digest: string): Promise<SignInLink | null> {
    const doc = await this.links.findOne({ _id: digest });
    return doc && { digest: doc._id, userId: doc.userId, created: doc.created, expires: doc.expires };
  }

  async used(digest: string): Promise<boolean> {
    return (await this.uses.findOne({ _id: digest })) !== null;
  }

  /** Marks the link used; false when it already was (by this request's twin, a double click, a replay). */
  async use(link: SignInLink, at: Date): Promise<boolean> {
    try {
      await this.uses.insertOne({ _id: link.digest, at, expires: link.expires });
      return true;
    } catch (err) {
      if (isDuplicateKey(err)) return false;
      throw err;
    }
  }

  /** Removes links (and their uses) that expired before `now`, and past windows' counts (scans: the hourly clean-up). */
  async deleteExpired(now: Date): Promise<number> {
    const { deletedCount } = await this.links.deleteMany({ expires: { $lte: now } });
    await this.uses.deleteMany({ expires: { $lte: now } });
    await this.perHour.removeEarlierWindows();
    await this.perDay.removeEarlierWindows();
    return deletedCount;
  }
}
