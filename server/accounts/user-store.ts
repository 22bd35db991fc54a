// Dashboard users and their roles per shop. On FerretDB every filter but an exact `{_id}` scans the collection, so
// each look-up on the request path is by `_id`:
// - `dashboard_users`: `_id` = the user's number (as a string); the user's roles per shop live in the user (`roles`, a map from
//   shop id to role), so a signed-in request reads its user once and knows every shop it may act for;
// - `dashboard_user_addresses`: `_id` = the lower-cased address, to find a user by the address they type;
// - `dashboard_teams`: `_id` = the shop's id (as a string), its users (a map from user id to when and by whom they
//   were added), to list a team without a search;
// - `dashboard_user_removals` (removal-queue.ts): when to look again whether a user went unused.
// Roles and team entries change by one `$set`/`$unset` of a single key each, so two changes to different shops
// never overwrite each other. Changes to one shop's team are serialised by a claim (`withTeamLock`): the rule that a
// shop keeps an owner reads the team and then writes it.
// Users are cached in the process (every dashboard request reads its user's roles): another process sees a changed
// role within CACHE_TTL_MS, this one at once (never served stale).
import { randomUUID } from 'node:crypto';
import type { Cache } from '../cache.js';
import { Claims } from '../db/claims.js';
import { insertNumbered, isDuplicateKey, type Collection, type Db } from '../db/index.js';
import type { AuditActor } from '../audit/model.js';
import { UserRemovalQueue } from './removal-queue.js';
import { addressKey, UNUSED_USER_MS } from './rules.js';
import type { Role } from './roles.js';

export interface User {
  id: number;
  email: string;
  /** Shop id (as a string key) → role. */
  roles: Record<string, Role>;
  created: Date;
  /** The first sign-in is when an added user became active; null: never signed in yet. */
  lastSignIn: Date | null;
}

interface UserDoc extends User {
  /** The number as a string: FerretDB finds a string `_id` far faster than a numeric one (measured). */
  _id: string;
}

interface AddressDoc {
  _id: string;
  userId: number;
}

/** A member's entry in their shop's team: when they were added, by whom. */
interface TeamEntry {
  at: Date;
  by: AuditActor;
}

interface TeamDoc {
  /** The shop's id as a string (see UserDoc). */
  _id: string;
  /** User id (as a string key) → their addition; a bare date from before additions named who made them. */
  users: Record<string, TeamEntry | Date>;
}

export interface Membership {
  shopId: number;
  role: Role;
}

/** A user as a member of one shop. */
export interface TeamMembership {
  user: User;
  role: Role;
  /** Null only for a role without its team entry (never written so by the service). */
  addedAt: Date | null;
  /** Null for members added before additions named who made them. */
  addedBy: AuditActor | null;
}

const additionOf = (entry: TeamEntry | Date | undefined): Pick<TeamMembership, 'addedAt' | 'addedBy'> =>
  entry instanceof Date
    ? { addedAt: entry, addedBy: null }
    : { addedAt: entry?.at ?? null, addedBy: entry?.by ?? null };

const TEAM_LOCK_MS = 10_000;

const toUser = ({ _id: _, ...user }: UserDoc): User => user;
const copy = (user: User): User => ({ ...user, roles: { ...user.roles } });

export function membershipsOf(user: Pick<User, 'roles'>): Membership[] {
  return Object.entries(user.roles)
    .map(([shopId, role]) => ({ shopId: Number(shopId), role }))
    .sort((a, b) => a.shopId - b.shopId);
}

export class UserStore {
  private readonly users: Collection<UserDoc>;
  private readonly addresses: Collection<AddressDoc>;
  private readonly teams: Collection<TeamDoc>;
  private readonly teamLocks: Claims<string>;
  /** When to look again whether a user went unused (written with each new user). */
  readonly removals: UserRemovalQueue;

  /** `cache`: users by id. A write deletes the user's entry when it ends: a read that ran meanwhile is not kept. */
  constructor(
    private readonly db: Db,
    private readonly cache: Cache<User>,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.users = db.collection<UserDoc>('dashboard_users');
    this.addresses = db.collection<AddressDoc>('dashboard_user_addresses');
    this.teams = db.collection<TeamDoc>('dashboard_teams');
    this.teamLocks = new Claims<string>(db, 'dashboard_team_claims', now);
    this.removals = new UserRemovalQueue(db);
  }

  async ensureIndexes(): Promise<void> {
    await this.teamLocks.ensureIndexes();
    await this.removals.ensureIndexes();
  }

  /** A copy: callers may change what they get without changing the cache. */
  async get(id: number): Promise<User | null> {
    const user = await this.cache.fetch(
      id,
      async () => {
        const doc = await this.users.findOne({ _id: String(id) });
        return doc ? toUser(doc) : undefined;
      },
      { bytes: (u) => 300 + 40 * Object.keys(u.roles).length },
    );
    return user ? copy(user) : null;
  }

  private async writing<T>(userId: number, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } finally {
      this.cache.delete(userId);
    }
  }

  async findByEmail(email: string): Promise<User | null> {
    const entry = await this.addresses.findOne({ _id: addressKey(email) });
    return entry ? this.get(entry.userId) : null;
  }

  /**
   * The user with this address, created when there is none (two processes creating the same one agree on one). A
   * new user comes with their removal entry, written before their address: none is left without one.
   */
  async findOrCreate(email: string): Promise<User> {
    const existing = await this.findByEmail(email);
    if (existing) return existing;
    const doc = await insertNumbered(this.db, this.users, 'dashboard_users', (id) => ({
      _id: String(id),
      id,
      email,
      roles: {},
      created: this.now(),
      lastSignIn: null,
    }));
    await this.removals.schedule(doc.id, new Date(doc.created.getTime() + UNUSED_USER_MS));
    try {
      await this.addresses.insertOne({ _id: addressKey(email), userId: doc.id });
      return toUser(doc);
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
      await this.writing(doc.id, () => this.users.deleteOne({ _id: String(doc.id) }));
      const other = await this.findByEmail(email);
      if (!other) throw err;
      return other;
    }
  }

  /** The members of a shop, by user id. */
  async team(shopId: number): Promise<TeamMembership[]> {
    const team = await this.teams.findOne({ _id: String(shopId) });
    const members = await Promise.all(
      Object.entries(team?.users ?? {}).map(async ([id, entry]) => {
        const user = await this.get(Number(id));
        const role = user?.roles[String(shopId)];
        return user && role ? { user, role, ...additionOf(entry) } : null;
      }),
    );
    return members.filter((m) => m !== null).sort((a, b) => a.user.id - b.user.id);
  }

  /** One member of a shop; null when the user is not in its team. */
  async member(shopId: number, userId: number): Promise<TeamMembership | null> {
    const user = await this.get(userId);
    const role = user?.roles[String(shopId)];
    if (!user || !role) return null;
    const team = await this.teams.findOne({ _id: String(shopId) });
    return { user, role, ...additionOf(team?.users[String(userId)]) };
  }

  /** Adds the user to the shop's team with this role; returns when and by whom (`by`), as the team list shows it. */
  async addMember(
    userId: number,
    shopId: number,
    role: Role,
    by: AuditActor,
  ): Promise<Pick<TeamMembership, 'addedAt' | 'addedBy'>> {
    const entry: TeamEntry = { at: this.now(), by };
    await this.teams.updateOne({ _id: String(shopId) }, { $set: { [`users.${userId}`]: entry } }, { upsert: true });
    await this.setRole(userId, shopId, role);
    return additionOf(entry);
  }

  /** Sets the user's role in the shop (their team entry, when they were added and by whom, stays). */
  async setRole(userId: number, shopId: number, role: Role): Promise<void> {
    await this.writing(userId, () =>
      this.users.updateOne({ _id: String(userId) }, { $set: { [`roles.${shopId}`]: role } }),
    );
  }

  async removeRole(userId: number, shopId: number): Promise<void> {
    // The user's own entry decides access: it goes first, so a crash in between leaves nobody with access that
    // the team list does not show.
    await this.writing(userId, () =>
      this.users.updateOne({ _id: String(userId) }, { $unset: { [`roles.${shopId}`]: '' } }),
    );
    await this.teams.updateOne({ _id: String(shopId) }, { $unset: { [`users.${userId}`]: '' } });
  }

  /**
   * The shops of the users who signed in most recently, most recent first, at most `limit` (which dashboard views
   * to read at start). A scan of the users on FerretDB: there are far fewer users than reviews.
   */
  async recentlyUsedShops(limit: number): Promise<number[]> {
    const shops = new Set<number>();
    const cursor = this.users
      .find({ lastSignIn: { $ne: null } }, { projection: { _id: 0, roles: 1 } })
      .sort({ lastSignIn: -1 })
      .limit(limit * 10);
    for await (const user of cursor) {
      for (const { shopId } of membershipsOf(user)) if (shops.size < limit) shops.add(shopId);
      if (shops.size === limit) break;
    }
    await cursor.close();
    return [...shops];
  }

  /**
   * Removes a user the clean-up found unused (rules.ts unusedUser), and their address; false when they were added to
   * a shop or signed in since it looked (they keep their address).
   */
  async removeUnused(user: User): Promise<boolean> {
    const address = { _id: addressKey(user.email), userId: user.id };
    // The address first: a crash in between leaves a user nobody finds by address, whom the next run removes.
    await this.addresses.deleteOne(address);
    const filter = { _id: String(user.id), lastSignIn: null, roles: {} };
    const { deletedCount } = await this.writing(user.id, () => this.users.deleteOne(filter));
    if (deletedCount === 1) return true;
    try {
      await this.addresses.insertOne(address);
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
    }
    return false;
  }

  async recordSignIn(userId: number, at: Date): Promise<void> {
    await this.writing(userId, () => this.users.updateOne({ _id: String(userId) }, { $set: { lastSignIn: at } }));
  }

  /**
   * Runs `change` while holding the shop's team claim, so that the last-owner rule sees the team as it is written.
   * Waits a little for another change of the same team to finish; a claim left by a crashed process runs out.
   */
  async withTeamLock<T>(shopId: number, change: () => Promise<T>): Promise<T> {
    const holder = randomUUID();
    const key = `shop:${shopId}`;
    for (let attempt = 0; !(await this.teamLocks.claimOne(key, holder, TEAM_LOCK_MS)); attempt++) {
      if (attempt >= 100) throw new Error(`team of shop ${shopId} stayed locked`);
      await new Promise((ok) => setTimeout(ok, 20 + Math.random() * 30));
    }
    try {
      return await change();
    } finally {
      await this.teamLocks.release(holder, [key]);
    }
  }
}
