// Dashboard sessions. The cookie holds a random secret; the database holds only its SHA-256, as the session's `_id`
// (`dashboard_sessions`), so every signed-in request is one `_id` read and a leaked database opens no session.
// A user's sessions are listed from `dashboard_user_sessions` (`_id` = user id: the public session id → the
// secret's digest), never by a search. The session document decides: an entry in the list whose session is gone or
// ended is skipped and dropped.
// On the embedded database even a read by `_id` costs more as the collection grows (BENCHMARKS.md, Embedded database
// limits), and every dashboard request reads its session: sessions are cached in the process like webshops, so
// another process sees a revoked session as ended within CACHE_TTL_MS; this one at once (never served stale).
import type { Cache } from '../cache.js';
import type { Collection, Db } from '../db/index.js';
import type { SessionTimes } from './rules.js';

export interface Session extends SessionTimes {
  /** The public id (lists, revocation): random, unrelated to the secret. */
  id: string;
  /** SHA-256 of the cookie's secret. */
  digest: string;
  userId: number;
  /** The CSRF token every state-changing call must send in X-CSRF-Token. */
  csrf: string;
  userAgent: string;
}

interface SessionDoc extends Omit<Session, 'digest'> {
  _id: string;
}

interface UserSessionsDoc {
  /** The user's id as a string: FerretDB finds a string `_id` far faster than a numeric one (measured). */
  _id: string;
  /** Public session id → { digest, created }. */
  sessions: Record<string, { digest: string; created: Date }>;
}

const toSession = ({ _id, ...rest }: SessionDoc): Session => ({ ...rest, digest: _id });

export class SessionStore {
  private readonly sessions: Collection<SessionDoc>;
  private readonly byUser: Collection<UserSessionsDoc>;

  /** `cache`: sessions by digest. A write deletes its entries when it ends: a read that ran meanwhile is not kept. */
  constructor(
    db: Db,
    private readonly cache: Cache<Session>,
  ) {
    this.sessions = db.collection<SessionDoc>('dashboard_sessions');
    this.byUser = db.collection<UserSessionsDoc>('dashboard_user_sessions');
  }

  private async writing<T>(digests: string[], write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } finally {
      for (const d of digests) this.cache.delete(d);
    }
  }

  /** Listed first, then stored: a session that exists is always in its user's list, so "sign out everywhere" finds it. */
  async create(session: Session): Promise<void> {
    const { digest, ...rest } = session;
    await this.byUser.updateOne(
      { _id: String(session.userId) },
      { $set: { [`sessions.${session.id}`]: { digest, created: session.created } } },
      { upsert: true },
    );
    await this.writing([digest], () => this.sessions.insertOne({ _id: digest, ...rest }));
  }

  /** A copy: callers may change what they get without changing the cache. */
  async byDigest(digest: string): Promise<Session | null> {
    const session = await this.cache.fetch(
      digest,
      async () => {
        const doc = await this.sessions.findOne({ _id: digest });
        // Unknown digests are not cached (undefined): random cookies must not push real sessions out.
        return doc ? toSession(doc) : undefined;
      },
      { bytes: () => 400 },
    );
    return session ? { ...session } : null;
  }

  async touch(digest: string, times: Pick<SessionTimes, 'lastSeen' | 'expires'>): Promise<void> {
    await this.writing([digest], () => this.sessions.updateOne({ _id: digest }, { $set: times }));
  }

  /** Every stored session of the user, ended ones included (the caller decides), oldest first. */
  async ofUser(userId: number): Promise<Session[]> {
    const list = await this.byUser.findOne({ _id: String(userId) });
    const entries = Object.entries(list?.sessions ?? {});
    const found = await Promise.all(entries.map(([, e]) => this.byDigest(e.digest)));
    const gone = entries.filter((_, i) => found[i] === null).map(([id]) => id);
    if (gone.length) await this.unlist(userId, gone);
    return found.filter((s): s is Session => s !== null).sort((a, b) => a.created.getTime() - b.created.getTime());
  }

  /** Ends one session of the user by its public id; false when the user has no such session. */
  async revoke(userId: number, sessionId: string): Promise<boolean> {
    const list = await this.byUser.findOne({ _id: String(userId) });
    const entry = list?.sessions[sessionId];
    if (!entry) return false;
    const { deletedCount } = await this.writing([entry.digest], () => this.sessions.deleteOne({ _id: entry.digest }));
    await this.unlist(userId, [sessionId]);
    return deletedCount > 0;
  }

  /** Ends every session of the user but `keep` (a public id); returns how many ended. */
  async revokeAll(userId: number, keep?: string): Promise<number> {
    const list = await this.byUser.findOne({ _id: String(userId) });
    const entries = Object.entries(list?.sessions ?? {}).filter(([id]) => id !== keep);
    let ended = 0;
    for (const [, entry] of entries) {
      ended += (await this.writing([entry.digest], () => this.sessions.deleteOne({ _id: entry.digest }))).deletedCount;
    }
    if (entries.length)
      await this.unlist(
        userId,
        entries.map(([id]) => id),
      );
    return ended;
  }

  /**
   * How many sessions the user's list holds that started after `since`: one read, for the team page. Sessions that
   * ended unused are counted until the hourly clean-up (or the user's own list) drops them.
   */
  async countListed(userId: number, since: Date): Promise<number> {
    const list = await this.byUser.findOne({ _id: String(userId) });
    return Object.values(list?.sessions ?? {}).filter((e) => e.created > since).length;
  }

  /** Removes ended sessions and their list entries (a scan: the hourly clean-up, FerretDB has no TTL indexes). */
  async deleteEnded(now: Date): Promise<number> {
    const filter = { $or: [{ expires: { $lte: now } }, { absoluteExpires: { $lte: now } }] };
    const ended = await this.sessions.find(filter, { projection: { _id: 1, id: 1, userId: 1 } }).toArray();
    if (ended.length === 0) return 0;
    const { deletedCount } = await this.writing(
      ended.map((s) => s._id),
      () => this.sessions.deleteMany({ _id: { $in: ended.map((s) => s._id) } }),
    );
    const byUser = new Map<number, string[]>();
    for (const s of ended) byUser.set(s.userId, [...(byUser.get(s.userId) ?? []), s.id]);
    for (const [userId, ids] of byUser) await this.unlist(userId, ids);
    return deletedCount;
  }

  private async unlist(userId: number, sessionIds: string[]): Promise<void> {
    await this.byUser.updateOne(
      { _id: String(userId) },
      { $unset: Object.fromEntries(sessionIds.map((id) => [`sessions.${id}`, ''])) },
    );
  }
}
