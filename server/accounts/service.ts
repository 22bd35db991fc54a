// The accounts' rules that span stores: sign-in links (made, e-mailed, used once), sessions (made, found, slid,
// ended) and teams (users added, re-roled, removed; a shop keeps an owner), with every team change in the audit
// trail. Used by the dashboard's routes (routes.ts), the operator's (admin.ts), the demo link at start and tests.
import { randomBytes } from 'node:crypto';
import type { AuditActor } from '../audit/model.js';
import { HttpError } from '../http/errors.js';
import { tooManyRequests } from '../http/rate-limit.js';
import type { Language } from '../languages.js';
import { queueMail, type OutboxKind } from '../mail/outbox-mail.js';
import type { SignInIntent } from './sign-in-mail.js';
import { signInMail } from '../mail/templates.js';
import { sha256Hex } from '../hash.js';
import type { Services } from '../services.js';
import { mainLanguage } from '../webshops/rules.js';
import type { Role } from './roles.js';
import {
  addressKey,
  linkExpired,
  newSessionTimes,
  SECRET_FORMAT,
  sessionLive,
  SESSIONS_PER_USER,
  SIGN_IN_LINK_MS,
  signedInSinceAdded,
  slide,
  takesLastOwner,
  UNUSED_USER_MS,
  unusedUser,
} from './rules.js';
import type { Session } from './session-store.js';
import { INVITATIONS_PER_ADDRESS_PER_DAY, INVITATIONS_PER_SHOP_PER_DAY } from './invitation-limit-store.js';
import { membershipsOf, type Membership, type TeamMembership, type User } from './user-store.js';

/** What the accounts' flows (sign-in links, teams, sessions, the clean-up) use of the services. */
export type AccountDeps = Pick<
  Services,
  | 'audit'
  | 'config'
  | 'log'
  | 'now'
  | 'outbox'
  | 'scheduler'
  | 'sessions'
  | 'signInLinks'
  | 'teamInvitations'
  | 'users'
  | 'webshops'
>;

/** 32 random bytes, base64url: the secret of a link or a session cookie. */
const newSecret = (): string => randomBytes(32).toString('base64url');

const signInUrl = (config: Services['config'], secret: string): string =>
  `${config.baseUrl}/dashboard/sign-in/${secret}`;
const requestUrl = (config: Services['config']): string => `${config.baseUrl}/dashboard/`;

/** Makes a sign-in link for the user and returns its address (the e-mail, the demo owner's line at start). */
export async function createSignInLink(services: AccountDeps, userId: number): Promise<string> {
  const secret = newSecret();
  const created = services.now();
  await services.signInLinks.add({
    digest: sha256Hex(secret),
    userId,
    created,
    expires: new Date(created.getTime() + SIGN_IN_LINK_MS),
  });
  return signInUrl(services.config, secret);
}

interface SignInMailTeam {
  shopName: string;
  role: Role;
}

/**
 * Queues the e-mail with a sign-in link (the outbox, server/mail/outbox-mail.ts): the worker makes the link when it
 * sends it, so its 15 minutes count from then. A request for a link is dropped if not sent within those 15 minutes
 * (the requester asks again); a team invitation waits for the mail server as long as the retries last.
 */
async function queueSignInMail(
  services: AccountDeps,
  userId: number,
  language: Language,
  team?: SignInMailTeam,
): Promise<void> {
  const expires = team ? null : new Date(services.now().getTime() + SIGN_IN_LINK_MS);
  await queueMail(services, `sign-in.${randomBytes(12).toString('hex')}`, {
    kind: 'sign-in',
    userId,
    language,
    team: team ?? null,
    expires,
  });
}

/** The outbox's sign-in e-mails, when the drain gets to them: a fresh link, unless the user can no longer use one. */
export function signInMailKind(services: AccountDeps): OutboxKind<SignInIntent> {
  return {
    compose: async (queued) => {
      if (queued.expires && queued.expires <= services.now()) return { drop: 'the request for a link expired' };
      const user = await services.users.get(queued.userId);
      // Removed from every shop since: the link would lead nowhere.
      if (!user || membershipsOf(user).length === 0) return { drop: 'the user has no shop any more' };
      const mail = signInMail({
        language: queued.language,
        brandName: services.config.brandName,
        signInUrl: await createSignInLink(services, user.id),
        team: queued.team ? { ...queued.team, requestUrl: requestUrl(services.config) } : undefined,
      });
      return { fromName: queued.team?.shopName ?? services.config.brandName, to: user.email, ...mail };
    },
  };
}

type LinkRequestOutcome = 'sent' | 'no_access' | 'limited';

/**
 * Someone asked for a link for `email`: only a user with at least one shop gets one, and no more than the limits
 * per address allow (counted by digest: the places hold no addresses). The caller answers the same whatever the
 * outcome, so asking for someone's links never locks them out.
 */
export async function requestSignInLink(
  services: AccountDeps,
  email: string,
  language: Language,
): Promise<LinkRequestOutcome> {
  const user = await services.users.findByEmail(email);
  if (!user || membershipsOf(user).length === 0) return 'no_access';
  if (!(await services.signInLinks.takeLinkPlace(sha256Hex(addressKey(user.email))))) return 'limited';
  await queueSignInMail(services, user.id, language);
  return 'sent';
}

type LinkState = 'valid' | 'used' | 'expired' | 'unknown';

/** What a link would do, without using it (the GET page: mail scanners open links). */
export async function signInLinkState(services: AccountDeps, secret: string): Promise<LinkState> {
  if (!SECRET_FORMAT.test(secret)) return 'unknown';
  const link = await services.signInLinks.byDigest(sha256Hex(secret));
  if (!link) return 'unknown';
  if (await services.signInLinks.used(link.digest)) return 'used';
  return linkExpired(link, services.now()) ? 'expired' : 'valid';
}

interface NewSession {
  /** The cookie's value: the only copy of the secret. */
  secret: string;
  session: Session;
}

/** Uses the link (once) and starts a session; otherwise says why not. */
export async function signIn(
  services: AccountDeps,
  secret: string,
  userAgent: string,
): Promise<{ ok: true; session: NewSession } | { ok: false; reason: Exclude<LinkState, 'valid'> }> {
  if (!SECRET_FORMAT.test(secret)) return { ok: false, reason: 'unknown' };
  const link = await services.signInLinks.byDigest(sha256Hex(secret));
  if (!link) return { ok: false, reason: 'unknown' };
  const now = services.now();
  if (linkExpired(link, now)) return { ok: false, reason: 'expired' };
  if (!(await services.signInLinks.use(link, now))) return { ok: false, reason: 'used' };
  const user = await services.users.get(link.userId);
  // Removed from every shop since the link was sent: the link no longer leads anywhere.
  if (!user || membershipsOf(user).length === 0) return { ok: false, reason: 'unknown' };
  const session = await startSession(services, user.id, userAgent);
  await services.users.recordSignIn(user.id, now);
  return { ok: true, session };
}

/** A session for the user (sign-in, tests); the oldest sessions past SESSIONS_PER_USER end. */
export async function startSession(services: AccountDeps, userId: number, userAgent: string): Promise<NewSession> {
  const secret = newSecret();
  const session: Session = {
    id: randomBytes(9).toString('base64url'),
    digest: sha256Hex(secret),
    userId,
    csrf: randomBytes(32).toString('base64url'),
    userAgent: userAgent.slice(0, 300),
    ...newSessionTimes(services.now()),
  };
  const existing = await services.sessions.ofUser(userId);
  const byUse = existing.sort((a, b) => a.lastSeen.getTime() - b.lastSeen.getTime());
  for (const old of byUse.slice(0, Math.max(0, byUse.length - SESSIONS_PER_USER + 1)))
    await services.sessions.revoke(userId, old.id);
  await services.sessions.create(session);
  return { secret, session };
}

interface SignedIn {
  session: Session;
  user: User;
  memberships: Membership[];
}

/** The live session of a cookie's secret with its user, its end moved on by this use; null when there is none. */
export async function sessionOf(services: AccountDeps, secret: string | undefined): Promise<SignedIn | null> {
  if (!secret || !SECRET_FORMAT.test(secret)) return null;
  const session = await services.sessions.byDigest(sha256Hex(secret));
  if (!session) return null;
  const now = services.now();
  if (!sessionLive(session, now)) {
    await services.sessions.revoke(session.userId, session.id);
    return null;
  }
  const user = await services.users.get(session.userId);
  if (!user) return null;
  const moved = slide(session, now);
  if (moved) {
    await services.sessions.touch(session.digest, moved);
    Object.assign(session, moved);
  }
  return { session, user, memberships: membershipsOf(user) };
}

/** The user's live sessions, oldest first. */
export async function liveSessions(services: AccountDeps, userId: number): Promise<Session[]> {
  const now = services.now();
  return (await services.sessions.ofUser(userId)).filter((s) => sessionLive(s, now));
}

// ---- Teams -------------------------------------------------------------------------------------------------------

/**
 * A member as their shop's team sees them: their role in this shop, when and by whom they were added, and whether
 * they signed in since (rules.ts signedInSinceAdded). Nothing of their other shops: not when they last signed in,
 * nor their sessions.
 */
export interface TeamMember {
  id: number;
  email: string;
  role: Role;
  addedAt: Date | null;
  addedBy: AuditActor | null;
  signedInSinceAdded: boolean;
}

const teamMemberOf = (m: TeamMembership): TeamMember => ({
  id: m.user.id,
  email: m.user.email,
  role: m.role,
  addedAt: m.addedAt,
  addedBy: m.addedBy,
  signedInSinceAdded: signedInSinceAdded(m.user.lastSignIn, m.addedAt),
});

export async function listTeam(services: AccountDeps, shopId: number): Promise<TeamMember[]> {
  return (await services.users.team(shopId)).map(teamMemberOf);
}

async function teamMember(services: AccountDeps, shopId: number, userId: number): Promise<TeamMember> {
  const member = await services.users.member(shopId, userId);
  if (!member) throw new HttpError(404, 'No such user in this shop.');
  return teamMemberOf(member);
}

async function membersOf(services: AccountDeps, shopId: number): Promise<{ userId: number; role: Role }[]> {
  return (await services.users.team(shopId)).map((m) => ({ userId: m.user.id, role: m.role }));
}

const alreadyMember = () =>
  new HttpError(409, 'This address is in the team already; change its role instead.', 'already_member');

const LIMIT_ERRORS = {
  shop: {
    code: 'shop_invitations_limit',
    message: `A shop may add ${INVITATIONS_PER_SHOP_PER_DAY} users a day, and this one has today. Please try again tomorrow.`,
  },
  address: {
    code: 'address_invitations_limit',
    message: `An address may get ${INVITATIONS_PER_ADDRESS_PER_DAY} team invitations a day, and this one has today. Please try again tomorrow.`,
  },
} as const;

/** Takes a place of the shop's and of the address's daily invitations, or throws the 429 naming the limit reached. */
async function admitInvitation(services: AccountDeps, shopId: number, email: string): Promise<void> {
  const reached = await services.teamInvitations.take(shopId, email);
  if (!reached) return;
  const { code, message } = LIMIT_ERRORS[reached.limit];
  throw tooManyRequests(reached.waitSeconds, message, code);
}

/** Looks again in UNUSED_USER_MS whether the user went unused (no sign-in yet, and now or soon no shop). */
const scheduleRemoval = (services: AccountDeps, userId: number) =>
  services.users.removals.schedule(userId, new Date(services.now().getTime() + UNUSED_USER_MS));

/**
 * Adds the address to the shop's team and e-mails it a sign-in link; 409 when it is in the team already, 429 when
 * an owner reached a daily limit (the operator, who runs the service, has none). The answer is the same whether or
 * not the address was known: the address as typed, and this addition alone.
 */
export async function addTeamMember(
  services: AccountDeps,
  shopId: number,
  input: { email: string; role: Role; language?: Language },
  actor: AuditActor,
): Promise<TeamMember> {
  const shop = await services.webshops.get(shopId);
  if (!shop) throw new HttpError(404, 'No such webshop.');
  const known = await services.users.findByEmail(input.email);
  if (known?.roles[String(shopId)]) throw alreadyMember();
  // Before anything is written or sent.
  if (actor.kind === 'user') await admitInvitation(services, shopId, input.email);
  const user = known ?? (await services.users.findOrCreate(input.email));
  const added = await services.users.withTeamLock(shopId, async () => {
    const fresh = await services.users.get(user.id);
    if (fresh?.roles[String(shopId)]) throw alreadyMember();
    return services.users.addMember(user.id, shopId, input.role, actor);
  });
  // A new user came with their removal entry; one added again before ever signing in gets a new one.
  if (known && known.lastSignIn === null) await scheduleRemoval(services, user.id);
  await services.audit.record({
    shopId,
    actor,
    action: 'team.user_added',
    target: `user:${user.id}`,
    details: { role: input.role },
  });
  const language = input.language ?? mainLanguage(shop);
  await queueSignInMail(services, user.id, language, { shopName: shop.name, role: input.role });
  return { id: user.id, email: input.email, role: input.role, ...added, signedInSinceAdded: false };
}

/** Changes a member's role; 409 `last_owner` when it would leave the shop without an owner. */
export async function changeTeamRole(
  services: AccountDeps,
  shopId: number,
  userId: number,
  role: Role,
  actor: AuditActor,
): Promise<TeamMember> {
  const previous = await services.users.withTeamLock(shopId, async () => {
    const members = await membersOf(services, shopId);
    const current = members.find((m) => m.userId === userId);
    if (!current) throw new HttpError(404, 'No such user in this shop.');
    if (takesLastOwner(members, userId, role)) throw lastOwner();
    if (current.role !== role) await services.users.setRole(userId, shopId, role);
    return current.role;
  });
  if (previous !== role) {
    await services.audit.record({
      shopId,
      actor,
      action: 'team.role_changed',
      target: `user:${userId}`,
      details: { role, previous_role: previous },
    });
  }
  return teamMember(services, shopId, userId);
}

/** Removes a member from the shop; 409 `last_owner` for the last owner. A user left without shops is signed out. */
export async function removeTeamMember(
  services: AccountDeps,
  shopId: number,
  userId: number,
  actor: AuditActor,
): Promise<void> {
  const previous = await services.users.withTeamLock(shopId, async () => {
    const members = await membersOf(services, shopId);
    const current = members.find((m) => m.userId === userId);
    if (!current) throw new HttpError(404, 'No such user in this shop.');
    if (takesLastOwner(members, userId, null)) throw lastOwner();
    await services.users.removeRole(userId, shopId);
    return current.role;
  });
  const user = await services.users.get(userId);
  if (user && membershipsOf(user).length === 0) {
    await services.sessions.revokeAll(userId);
    if (user.lastSignIn === null) await scheduleRemoval(services, userId);
  }
  await services.audit.record({
    shopId,
    actor,
    action: 'team.user_removed',
    target: `user:${userId}`,
    details: { previous_role: previous },
  });
}

const lastOwner = () =>
  new HttpError(409, 'A shop keeps at least one owner: make another user owner first.', 'last_owner');

const REMOVAL_BATCH = 100;

/**
 * Removes the users whose removal entry is due at `now` and who are still unused (rules.ts unusedUser), with their
 * sessions; the others' entries are dropped (a later addition or departure writes a new one). A sign-in link of a
 * removed user leads nowhere: signing in needs the user. Returns how many were removed.
 */
export async function removeUnusedUsers(services: AccountDeps, now: Date = services.now()): Promise<number> {
  let removed = 0;
  for (;;) {
    const due = await services.users.removals.due(now, REMOVAL_BATCH);
    for (const userId of due) {
      const user = await services.users.get(userId);
      if (user && unusedUser(user) && (await services.users.removeUnused(user))) {
        await services.sessions.revokeAll(userId);
        removed++;
      }
      await services.users.removals.drop(userId);
    }
    if (due.length < REMOVAL_BATCH) break;
  }
  if (removed > 0) services.log.info({ removed }, 'unused dashboard users removed');
  return removed;
}
