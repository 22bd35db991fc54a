// Sign-in links. The e-mail holds a random secret; `dashboard_sign_in_links` holds its SHA-256 as `_id`. Using a
// link inserts its digest into `dashboard_sign_in_uses`: an insert with a unique `_id` is atomic on MongoDB and on
// FerretDB alike, so of two requests racing with the same link exactly one signs in. Both are removed by the
// hourly clean-up once the link has expired.
import type { Collection, Db } from '../db/index.js';
import { isDuplicateKey } from '../db/index.js';
import { fixedWindows, WindowPlaces } from '../db/window-places.js';

/** Links an address may be sent in a window of 15 minutes: a typo retried, not an inbox flooded. */
export const LINKS_PER_ADDRESS = 5;
const LINK_WINDOW_MS = 15 * 60_000;

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

  /** Link requests per address, counted in every process alike (an inbox is flooded across processes too). */
  private readonly perAddress: WindowPlaces;

  constructor(db: Db, now: () => Date = () => new Date()) {
    this.links = db.collection<LinkDoc>('dashboard_sign_in_links');
    this.uses = db.collection<UseDoc>('dashboard_sign_in_uses');
    this.perAddress = new WindowPlaces(db, 'dashboard_sign_in_limits', LINKS_PER_ADDRESS, fixedWindows(LINK_WINDOW_MS), now);
  }

  /**
   * Counts a link request for the address behind `addressDigest` (a digest: the places hold no address); the seconds
   * until the address may ask again when it has asked LINKS_PER_ADDRESS times in this window, else 0.
   */
  takeAddressPlace(addressDigest: string): Promise<number> {
    return this.perAddress.take(addressDigest);
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
    await this.perAddress.removeEarlierWindows();
    return deletedCount;
  }
}
