// Dashboard users and their roles per shop. On FerretDB every filter but an exact `{_id}` scans the collection, so
// each look-up on the request path is by `_id`:
// - `dashboard_users`: `_id` = the user's number; the user's roles per shop live in the user (`roles`, a map from
//   shop id to role), so a signed-in request reads its user once and knows every shop it may act for;
// - `dashboard_user_addresses`: `_id` = the lower-cased address, to find a user by the address they type;
// - `dashboard_teams`: `_id` = the shop's id, the ids of its users (a map), to list a team without a search.
// Roles and team entries change by one `$set`/`$unset` of a single key each, so two changes to different shops
// never overwrite each other. Changes to one shop's team are serialised by a claim (`withTeamLock`): the rule that a
// shop keeps an owner reads the team and then writes it.
import { randomUUID } from 'node:crypto';
import { Claims } from '../db/claims.js';
import { insertNumbered, isDuplicateKey, type Collection, type Db } from '../db/index.js';
import { addressKey } from './rules.js';
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
  _id: number;
}

interface AddressDoc {
  _id: string;
  userId: number;
}

interface TeamDoc {
  _id: number;
  /** User id (as a string key) → when they were added. */
  users: Record<string, Date>;
}

export interface Membership {
  shopId: number;
  role: Role;
}

const TEAM_LOCK_MS = 10_000;

const toUser = ({ _id: _, ...user }: UserDoc): User => user;

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

  constructor(
    private readonly db: Db,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.users = db.collection<UserDoc>('dashboard_users');
    this.addresses = db.collection<AddressDoc>('dashboard_user_addresses');
    this.teams = db.collection<TeamDoc>('dashboard_teams');
    this.teamLocks = new Claims<string>(db, 'dashboard_team_claims', now);
  }

  async ensureIndexes(): Promise<void> {
    await this.teamLocks.ensureIndexes();
  }

  async get(id: number): Promise<User | null> {
    const doc = await this.users.findOne({ _id: id });
    return doc && toUser(doc);
  }

  async findByEmail(email: string): Promise<User | null> {
    const entry = await this.addresses.findOne({ _id: addressKey(email) });
    return entry ? this.get(entry.userId) : null;
  }

  /** The user with this address, created when there is none (two processes creating the same one agree on one). */
  async findOrCreate(email: string): Promise<User> {
    const existing = await this.findByEmail(email);
    if (existing) return existing;
    const doc = await insertNumbered(this.db, this.users, 'dashboard_users', (id) => ({
      _id: id,
      id,
      email,
      roles: {},
      created: this.now(),
      lastSignIn: null,
    }));
    try {
      await this.addresses.insertOne({ _id: addressKey(email), userId: doc.id });
      return toUser(doc);
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
      await this.users.deleteOne({ _id: doc.id });
      const other = await this.findByEmail(email);
      if (!other) throw err;
      return other;
    }
  }

  /** The users of a shop, each with their roles (the role in this shop is `roles[shopId]`). */
  async team(shopId: number): Promise<User[]> {
    const team = await this.teams.findOne({ _id: shopId });
    const ids = Object.keys(team?.users ?? {}).map(Number);
    const users = await Promise.all(ids.map((id) => this.get(id)));
    return users.filter((u): u is User => u !== null && u.roles[String(shopId)] !== undefined).sort((a, b) => a.id - b.id);
  }

  async setRole(userId: number, shopId: number, role: Role): Promise<void> {
    await this.teams.updateOne({ _id: shopId }, { $set: { [`users.${userId}`]: this.now() } }, { upsert: true });
    await this.users.updateOne({ _id: userId }, { $set: { [`roles.${shopId}`]: role } });
  }

  async removeRole(userId: number, shopId: number): Promise<void> {
    // The user's own entry decides access: it goes first, so a crash in between leaves nobody with access that
    // the team list does not show.
    await this.users.updateOne({ _id: userId }, { $unset: { [`roles.${shopId}`]: '' } });
    await this.teams.updateOne({ _id: shopId }, { $unset: { [`users.${userId}`]: '' } });
  }

  async recordSignIn(userId: number, at: Date): Promise<void> {
    await this.users.updateOne({ _id: userId }, { $set: { lastSignIn: at } });
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
