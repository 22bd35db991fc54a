// Dashboard sessions. The cookie holds a random secret; the database holds only its SHA-256, as the session's `_id`
// (`dashboard_sessions`), so every signed-in request is one `_id` read and a leaked database opens no session.
// A user's sessions are listed from `dashboard_user_sessions` (`_id` = user id: the public session id → the
// secret's digest), never by a search. The session document decides: an entry in the list whose session is gone or
// ended is skipped and dropped.
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
  _id: number;
  /** Public session id → { digest, created }. */
  sessions: Record<string, { digest: string; created: Date }>;
}

const toSession = ({ _id, ...rest }: SessionDoc): Session => ({ ...rest, digest: _id });

export class SessionStore {
  private readonly sessions: Collection<SessionDoc>;
  private readonly byUser: Collection<UserSessionsDoc>;

  constructor(db: Db) {
    this.sessions = db.collection<SessionDoc>('dashboard_sessions');
    this.byUser = db.collection<UserSessionsDoc>('dashboard_user_sessions');
  }

  /** Listed first, then stored: a session that exists is always in its user's list, so "sign out everywhere" finds it. */
  async create(session: Session): Promise<void> {
    const { digest, ...rest } = session;
    await this.byUser.updateOne(
      { _id: session.userId },
      { $set: { [`sessions.${session.id}`]: { digest, created: session.created } } },
      { upsert: true },
    );
    await this.sessions.insertOne({ _id: digest, ...rest });
  }

  async byDigest(digest: string): Promise<Session | null> {
    const doc = await this.sessions.findOne({ _id: digest });
    return doc && toSession(doc);
  }

  async touch(digest: string, times: Pick<SessionTimes, 'lastSeen' | 'expires'>): Promise<void> {
    await this.sessions.updateOne({ _id: digest }, { $set: times });
  }

  /** Every stored session of the user, ended ones included (the caller decides), oldest first. */
  async ofUser(userId: number): Promise<Session[]> {
    const list = await this.byUser.findOne({ _id: userId });
    const entries = Object.entries(list?.sessions ?? {});
    const found = await Promise.all(entries.map(([, e]) => this.byDigest(e.digest)));
    const gone = entries.filter((_, i) => found[i] === null).map(([id]) => id);
    if (gone.length) await this.unlist(userId, gone);
    return found.filter((s): s is Session => s !== null).sort((a, b) => a.created.getTime() - b.created.getTime());
  }

  /** Ends one session of the user by its public id; false when the user has no such session. */
  async revoke(userId: number, sessionId: string): Promise<boolean> {
    const list = await this.byUser.findOne({ _id: userId });
    const entry = list?.sessions[sessionId];
    if (!entry) return false;
    const { deletedCount } = await this.sessions.deleteOne({ _id: entry.digest });
    await this.unlist(userId, [sessionId]);
    return deletedCount > 0;
  }

  /** Ends every session of the user but `keep` (a public id); returns how many ended. */
  async revokeAll(userId: number, keep?: string): Promise<number> {
    const list = await this.byUser.findOne({ _id: userId });
    const entries = Object.entries(list?.sessions ?? {}).filter(([id]) => id !== keep);
    let ended = 0;
    for (const [, entry] of entries) ended += (await this.sessions.deleteOne({ _id: entry.digest })).deletedCount;
    if (entries.length) await this.unlist(userId, entries.map(([id]) => id));
    return ended;
  }

  /** Removes ended sessions (a scan: the hourly clean-up, FerretDB has no TTL indexes). */
  async deleteEnded(now: Date): Promise<number> {
    const { deletedCount } = await this.sessions.deleteMany({ $or: [{ expires: { $lte: now } }, { absoluteExpires: { $lte: now } }] });
    return deletedCount;
  }

  private async unlist(userId: number, sessionIds: string[]): Promise<void> {
    await this.byUser.updateOne({ _id: userId }, { $unset: Object.fromEntries(sessionIds.map((id) => [`sessions.${id}`, ''])) });
  }
}
